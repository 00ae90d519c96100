import { OpenObject } from '../../common/openapi/open-object.decorator.js';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { SCHEDULE_DAYS } from '../channels-stores.types.js';

/*
 * The body of POST /v3/channels-stores, for the OpenAPI document. The body is validated by hand
 * (channels-stores.parser.ts): numbers may come as numeric text, and properties not listed here
 * are accepted and kept (GET returns them).
 */

const INTEGER_OR_TEXT = [
  { type: 'integer', minimum: 0 },
  { type: 'string', pattern: '^\\d+$' },
];
const NUMBER_OR_TEXT = [
  { type: 'number', minimum: 0 },
  { type: 'string', pattern: '^[+-]?(\\d+(\\.\\d*)?|\\.\\d+)$' },
];
const TIME_PATTERN = '^([01]?\\d|2[0-3]):[0-5]\\d$';

export class ScheduleDto {
  @ApiProperty({
    description: 'Week day, or `SPECIAL` for a dated exception. Case-insensitive; stored upper-case.',
    enum: SCHEDULE_DAYS,
    example: 'MONDAY',
  })
  day: string;

  @ApiProperty({ description: '`H:MM` or `HH:MM`, 0:00 to 23:59', pattern: TIME_PATTERN, example: '11:00' })
  startTime: string;

  @ApiProperty({
    description: '`H:MM` or `HH:MM`, 0:00 to 23:59. Before `startTime` means the period ends past midnight.',
    pattern: TIME_PATTERN,
    example: '22:30',
  })
  endTime: string;

  @ApiPropertyOptional({ description: 'First date of a `SPECIAL` entry (only allowed there)', format: 'date', example: '2025-12-25' })
  startDate?: string;

  @ApiPropertyOptional({ description: 'Last date of a `SPECIAL` entry, not before `startDate`', format: 'date', example: '2025-12-25' })
  endDate?: string;
}

export class StoreServiceDto {
  @ApiProperty({ example: 'DELIVERY' })
  name: string;

  @ApiPropertyOptional({ example: true })
  active?: boolean;
}

export class SchedulesByChannelDto {
  @ApiProperty({ description: 'A `channelId` of this request’s `channels`', example: 'BN-APP' })
  channelId: string;

  @ApiPropertyOptional({ type: [ScheduleDto] })
  schedules?: ScheduleDto[];
}

export class TaxesInfoDto {
  @ApiPropertyOptional({ oneOf: NUMBER_OR_TEXT, description: 'Number or decimal text, >= 0', example: 9.25 })
  taxRate?: number | string;

  @ApiPropertyOptional({ oneOf: NUMBER_OR_TEXT, description: 'Number or decimal text, >= 0', example: 12 })
  vatRatePercentage?: number | string;
}

export class ContactInfoDto {
  @ApiPropertyOptional({ example: '+55 11 3061-0000' })
  phone?: string;

  @ApiPropertyOptional({ example: 'Rua dos Pinheiros, 1200 - Pinheiros, São Paulo - SP' })
  address?: string;
}

export class DeliveryInfoDto {
  @ApiPropertyOptional({
    oneOf: [{ type: 'string' }, { type: 'number', minimum: 0 }],
    description: 'Text, or a number (kept as text)',
    example: '35',
  })
  cookTime?: string | number;

  @ApiPropertyOptional({ oneOf: INTEGER_OR_TEXT, description: 'Integer or numeric text', example: '3' })
  deliveryId?: number | string;

  @ApiPropertyOptional({ oneOf: NUMBER_OR_TEXT, description: 'Decimal text or a number, >= 0', example: '25.00' })
  minimumOrder?: string | number;

  @ApiPropertyOptional({ oneOf: NUMBER_OR_TEXT, description: 'Number or decimal text, >= 0; stored exactly', example: 1.9999 })
  shippingCost?: number | string;
}

export class LocationInfoDto {
  @ApiPropertyOptional({ example: 'São Paulo' })
  city?: string;

  @ApiPropertyOptional({ description: 'Decimal text from -90 to 90, kept as sent', example: '-23.5629' })
  latitude?: string;

  @ApiPropertyOptional({ description: 'Decimal text from -180 to 180, kept as sent', example: '-46.6826' })
  longitude?: string;
}

/** The platform sends more than the documented properties; they are kept (contract §9). */
@OpenObject()
export class StoreDto {
  @ApiPropertyOptional({ example: 'Pizzaria Bella Napoli - Pinheiros' })
  name?: string;

  @ApiPropertyOptional({ example: true })
  active?: boolean;

  @ApiProperty({ oneOf: INTEGER_OR_TEXT, description: 'Integer or numeric text; unique in the request', example: '1201' })
  storeId: number | string;

  @ApiPropertyOptional({ oneOf: INTEGER_OR_TEXT, description: 'Integer or numeric text', example: '1350' })
  vendorId?: number | string;

  @ApiPropertyOptional({ example: 'BN-PIN' })
  storeCode?: string;

  @ApiPropertyOptional({ type: [StoreServiceDto] })
  services?: StoreServiceDto[];

  @ApiPropertyOptional({ type: [ScheduleDto], description: 'Opening hours of the store itself (sent by the platform)' })
  schedules?: ScheduleDto[];

  @ApiPropertyOptional({ type: [SchedulesByChannelDto] })
  schedulesByChannel?: SchedulesByChannelDto[];

  @ApiPropertyOptional({ type: TaxesInfoDto })
  taxesInfo?: TaxesInfoDto;

  @ApiPropertyOptional({ type: ContactInfoDto })
  contactInfo?: ContactInfoDto;

  @ApiPropertyOptional({ type: DeliveryInfoDto })
  deliveryInfo?: DeliveryInfoDto;

  @ApiPropertyOptional({ type: LocationInfoDto })
  locationInfo?: LocationInfoDto;

  @ApiPropertyOptional({ type: [String], description: '`channelId`s of this request’s `channels`, each once', example: ['BN-APP'] })
  storeChannels?: string[];
}

export class RelatedListDto {
  @ApiProperty({ example: 'L-100' })
  listId: string;

  @ApiPropertyOptional({ example: 'Cardápio principal' })
  listName?: string;
}

export class AdditionalInfoDto {
  @ApiPropertyOptional({ example: 'm-88' })
  mediaId?: string;

  @ApiPropertyOptional({ example: 'app' })
  mediaName?: string;

  @ApiPropertyOptional({ type: [RelatedListDto] })
  relatedLists?: RelatedListDto[];
}

/** The platform sends more than the documented properties; they are kept (contract §9). */
@OpenObject()
export class ChannelDto {
  @ApiPropertyOptional({ example: true })
  active?: boolean;

  @ApiPropertyOptional({ example: 'App próprio' })
  channel?: string;

  @ApiPropertyOptional({ oneOf: INTEGER_OR_TEXT, description: 'Integer or numeric text', example: '1350' })
  vendorId?: number | string;

  @ApiProperty({ description: 'Unique in the request (at most 100 characters)', example: 'BN-APP' })
  channelId: string;

  @ApiPropertyOptional({ example: 'Bella Napoli App' })
  channelReferenceName?: string;

  @ApiPropertyOptional({ type: AdditionalInfoDto })
  additionalInfo?: AdditionalInfoDto;
}

/** The platform sends more than the documented properties; they are kept (contract §9). */
@OpenObject()
export class ChannelsStoresRequestDto {
  @ApiProperty({ type: [StoreDto], description: 'Every store; stores not sent are deleted with everything attached to them' })
  stores: StoreDto[];

  @ApiProperty({ type: [ChannelDto], description: 'Every sales channel; channels not sent are deleted with everything attached to them' })
  channels: ChannelDto[];
}

export class ChannelsStoresReplacedDto {
  @ApiProperty({ description: 'A fresh bearer token for the calling client', example: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9...' })
  accessToken: string;
}

import { ApiHideProperty, ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { Allow, IsArray, IsBoolean, IsDefined, IsObject, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { ApiError } from '../../common/errors/api-error.js';
import type { OpenBodyOptions } from '../../common/http/open-body.js';
import { OpenObject } from '../../common/openapi/open-object.decorator.js';
import { SCHEDULE_DAYS } from '../channels-stores.types.js';
import {
  channelsStoresCrossChecks,
  got,
  ID_MAX_LENGTH,
  IsCalendarDate,
  IsCookTime,
  IsCoordinateText,
  IsDecimalText,
  IsIntegerText,
  IsScheduleDay,
  NotBeforeStartDate,
  OnlyOnSpecialDays,
  TEXT_MAX_LENGTH,
} from './channels-stores.validators.js';

/*
 * The body of POST /v3/channels-stores ("Stores and sales channels" in docs/api-decisions.md). Numbers may come as numeric text, and
 * properties not declared here are accepted and kept (GET returns them). Each property reports
 * its first problem only (`firstProblemOnly`), and class-validator checks a property's
 * decorators from the bottom up: the type check comes last. Limits are literals so that the
 * Swagger plugin copies them into the document (it does not follow constants).
 */

const REQUIRED = { message: 'is required' };
const STRING = { message: got('must be a string') };
const NOT_EMPTY = { message: 'must not be empty' };
const BOOLEAN = { message: got('must be a boolean') };
const OBJECT = { message: 'must be an object' };
const ARRAY = { message: 'must be an array' };
const EACH_OBJECT = { each: true, message: 'must be an object' };
const ID_LENGTH = { message: `must be at most ${ID_MAX_LENGTH} characters` };
const TEXT_LENGTH = { message: `must be at most ${TEXT_MAX_LENGTH} characters` };

const INTEGER_OR_TEXT = [
  { type: 'integer', minimum: 0 },
  { type: 'string', pattern: '^\\d+$' },
];
const NUMBER_OR_TEXT = [
  { type: 'number', minimum: 0 },
  { type: 'string', pattern: '^[+-]?(\\d+(\\.\\d*)?|\\.\\d+)$' },
];

export class ScheduleDto {
  /** Week day, or `SPECIAL` for a dated exception. Case-insensitive; stored upper-case. */
  @ApiProperty({ enum: SCHEDULE_DAYS, example: 'MONDAY' })
  @IsScheduleDay()
  @IsDefined(REQUIRED)
  day: string;

  /** `H:MM` or `HH:MM`, 0:00 to 23:59 */
  @ApiProperty({ example: '11:00' })
  @Matches(/^([01]?\d|2[0-3]):[0-5]\d$/, { message: got('must be a time H:MM or HH:MM from 0:00 to 23:59') })
  @IsDefined(REQUIRED)
  startTime: string;

  /** `H:MM` or `HH:MM`, 0:00 to 23:59. Before `startTime` means the period ends past midnight. */
  @ApiProperty({ example: '22:30' })
  @Matches(/^([01]?\d|2[0-3]):[0-5]\d$/, { message: got('must be a time H:MM or HH:MM from 0:00 to 23:59') })
  @IsDefined(REQUIRED)
  endTime: string;

  /** First date of a `SPECIAL` entry (only allowed there) */
  @ApiProperty({ format: 'date', example: '2025-12-25' })
  @IsOptional()
  @OnlyOnSpecialDays()
  @IsCalendarDate()
  startDate?: string;

  /** Last date of a `SPECIAL` entry, not before `startDate` */
  @ApiProperty({ format: 'date', example: '2025-12-25' })
  @IsOptional()
  @NotBeforeStartDate()
  @OnlyOnSpecialDays()
  @IsCalendarDate()
  endDate?: string;
}

export class StoreServiceDto {
  @ApiProperty({ example: 'DELIVERY' })
  @MaxLength(1000, TEXT_LENGTH)
  @Matches(/\S/, NOT_EMPTY)
  @IsString(STRING)
  @IsDefined(REQUIRED)
  name: string;

  @ApiProperty({ example: true })
  @IsOptional()
  @IsBoolean(BOOLEAN)
  active?: boolean;
}

export class SchedulesByChannelDto {
  /** A `channelId` of this request’s `channels` */
  @ApiProperty({ example: 'BN-APP' })
  @MaxLength(100, ID_LENGTH)
  @Matches(/\S/, NOT_EMPTY)
  @IsString(STRING)
  @IsDefined(REQUIRED)
  channelId: string;

  @IsOptional()
  @ValidateNested(EACH_OBJECT)
  @Type(() => ScheduleDto)
  @IsArray(ARRAY)
  schedules?: ScheduleDto[];
}

export class TaxesInfoDto {
  /** Number or decimal text, >= 0 */
  @ApiProperty({ oneOf: NUMBER_OR_TEXT, example: 9.25 })
  @IsOptional()
  @IsDecimalText()
  taxRate?: number | string;

  /** Number or decimal text, >= 0 */
  @ApiProperty({ oneOf: NUMBER_OR_TEXT, example: 12 })
  @IsOptional()
  @IsDecimalText()
  vatRatePercentage?: number | string;
}

export class ContactInfoDto {
  @ApiProperty({ example: '+55 11 3061-0000' })
  @IsOptional()
  @MaxLength(1000, TEXT_LENGTH)
  @IsString(STRING)
  phone?: string;

  @ApiProperty({ example: 'Rua dos Pinheiros, 1200 - Pinheiros, São Paulo - SP' })
  @IsOptional()
  @MaxLength(1000, TEXT_LENGTH)
  @IsString(STRING)
  address?: string;
}

export class DeliveryInfoDto {
  /** Text, or a number (kept as text) */
  @ApiProperty({ oneOf: [{ type: 'string' }, { type: 'number', minimum: 0 }], example: '35' })
  @IsOptional()
  @IsCookTime()
  cookTime?: string | number;

  /** Integer or numeric text */
  @ApiProperty({ oneOf: INTEGER_OR_TEXT, example: '3' })
  @IsOptional()
  @IsIntegerText()
  deliveryId?: number | string;

  /** Decimal text or a number, >= 0 */
  @ApiProperty({ oneOf: NUMBER_OR_TEXT, example: '25.00' })
  @IsOptional()
  @IsDecimalText()
  minimumOrder?: string | number;

  /** Number or decimal text, >= 0; stored exactly */
  @ApiProperty({ oneOf: NUMBER_OR_TEXT, example: 1.9999 })
  @IsOptional()
  @IsDecimalText()
  shippingCost?: number | string;
}

export class LocationInfoDto {
  @ApiProperty({ example: 'São Paulo' })
  @IsOptional()
  @MaxLength(1000, TEXT_LENGTH)
  @IsString(STRING)
  city?: string;

  /** Decimal text from -90 to 90, kept as sent */
  @ApiProperty({ example: '-23.5629' })
  @IsOptional()
  @IsCoordinateText(90)
  latitude?: string;

  /** Decimal text from -180 to 180, kept as sent */
  @ApiProperty({ example: '-46.6826' })
  @IsOptional()
  @IsCoordinateText(180)
  longitude?: string;
}

/** The platform sends more than the documented properties; they are kept and returned by GET. */
@OpenObject()
export class StoreDto {
  @ApiProperty({ example: 'Pizzaria Bella Napoli - Pinheiros' })
  @IsOptional()
  @MaxLength(1000, TEXT_LENGTH)
  @IsString(STRING)
  name?: string;

  @ApiProperty({ example: true })
  @IsOptional()
  @IsBoolean(BOOLEAN)
  active?: boolean;

  /** Integer or numeric text; unique in the request */
  @ApiProperty({ oneOf: INTEGER_OR_TEXT, example: '1201' })
  @IsIntegerText()
  @IsDefined(REQUIRED)
  storeId: number | string;

  /** Integer or numeric text */
  @ApiProperty({ oneOf: INTEGER_OR_TEXT, example: '1350' })
  @IsOptional()
  @IsIntegerText()
  vendorId?: number | string;

  @ApiProperty({ example: 'BN-PIN' })
  @IsOptional()
  @MaxLength(100, ID_LENGTH)
  @IsString(STRING)
  storeCode?: string;

  @IsOptional()
  @ValidateNested(EACH_OBJECT)
  @Type(() => StoreServiceDto)
  @IsArray(ARRAY)
  services?: StoreServiceDto[];

  /** Opening hours of the store itself (sent by the platform) */
  @IsOptional()
  @ValidateNested(EACH_OBJECT)
  @Type(() => ScheduleDto)
  @IsArray(ARRAY)
  schedules?: ScheduleDto[];

  @IsOptional()
  @ValidateNested(EACH_OBJECT)
  @Type(() => SchedulesByChannelDto)
  @IsArray(ARRAY)
  schedulesByChannel?: SchedulesByChannelDto[];

  @IsOptional()
  @ValidateNested()
  @Type(() => TaxesInfoDto)
  @IsObject(OBJECT)
  taxesInfo?: TaxesInfoDto;

  @IsOptional()
  @ValidateNested()
  @Type(() => ContactInfoDto)
  @IsObject(OBJECT)
  contactInfo?: ContactInfoDto;

  @IsOptional()
  @ValidateNested()
  @Type(() => DeliveryInfoDto)
  @IsObject(OBJECT)
  deliveryInfo?: DeliveryInfoDto;

  @IsOptional()
  @ValidateNested()
  @Type(() => LocationInfoDto)
  @IsObject(OBJECT)
  locationInfo?: LocationInfoDto;

  /** `channelId`s of this request’s `channels`, each once */
  // Each entry is checked with the references (`channelsStoresCrossChecks`), which name the entry.
  @ApiProperty({ example: ['BN-APP'] })
  @IsOptional()
  @IsArray(ARRAY)
  storeChannels?: string[];

  /** What GET adds; sent back in a request it is ignored (it is not configured here). */
  @ApiHideProperty()
  @Allow()
  fiscalGroupId?: unknown;
}

export class RelatedListDto {
  @ApiProperty({ example: 'L-100' })
  @MaxLength(100, ID_LENGTH)
  @Matches(/\S/, NOT_EMPTY)
  @IsString(STRING)
  @IsDefined(REQUIRED)
  listId: string;

  @ApiProperty({ example: 'Cardápio principal' })
  @IsOptional()
  @MaxLength(1000, TEXT_LENGTH)
  @IsString(STRING)
  listName?: string;
}

export class AdditionalInfoDto {
  @ApiProperty({ example: 'm-88' })
  @IsOptional()
  @MaxLength(1000, TEXT_LENGTH)
  @IsString(STRING)
  mediaId?: string;

  @ApiProperty({ example: 'app' })
  @IsOptional()
  @MaxLength(1000, TEXT_LENGTH)
  @IsString(STRING)
  mediaName?: string;

  @IsOptional()
  @ValidateNested(EACH_OBJECT)
  @Type(() => RelatedListDto)
  @IsArray(ARRAY)
  relatedLists?: RelatedListDto[];
}

/** The platform sends more than the documented properties; they are kept and returned by GET. */
@OpenObject()
export class ChannelDto {
  @ApiProperty({ example: true })
  @IsOptional()
  @IsBoolean(BOOLEAN)
  active?: boolean;

  @ApiProperty({ example: 'App próprio' })
  @IsOptional()
  @MaxLength(1000, TEXT_LENGTH)
  @IsString(STRING)
  channel?: string;

  /** Integer or numeric text */
  @ApiProperty({ oneOf: INTEGER_OR_TEXT, example: '1350' })
  @IsOptional()
  @IsIntegerText()
  vendorId?: number | string;

  /** Unique in the request (at most 100 characters) */
  @ApiProperty({ example: 'BN-APP' })
  @MaxLength(100, ID_LENGTH)
  @Matches(/\S/, NOT_EMPTY)
  @IsString(STRING)
  @IsDefined(REQUIRED)
  channelId: string;

  @ApiProperty({ example: 'Bella Napoli App' })
  @IsOptional()
  @MaxLength(1000, TEXT_LENGTH)
  @IsString(STRING)
  channelReferenceName?: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => AdditionalInfoDto)
  @IsObject(OBJECT)
  additionalInfo?: AdditionalInfoDto;
}

/** The platform sends more than the documented properties; they are kept and returned by GET. */
@OpenObject()
export class ChannelsStoresRequestDto {
  /** Every store; stores not sent are deleted with everything attached to them */
  @ValidateNested(EACH_OBJECT)
  @Type(() => StoreDto)
  @IsArray(ARRAY)
  @IsDefined({ message: 'is required and must be an array' })
  stores: StoreDto[];

  /** Every sales channel; channels not sent are deleted with everything attached to them */
  @ValidateNested(EACH_OBJECT)
  @Type(() => ChannelDto)
  @IsArray(ARRAY)
  @IsDefined({ message: 'is required and must be an array' })
  channels: ChannelDto[];
}

/**
 * How the body is read (after the client's credentials): unknown properties kept in their place,
 * every problem in one 400 with `stores[0].storeId` paths, the checks across items included.
 */
export const CHANNELS_STORES_BODY: OpenBodyOptions = {
  notAnObject: () => ApiError.validation([{ field: 'body', problem: 'must be a JSON object with `stores` and `channels` arrays' }]),
  firstProblemOnly: true,
  bracketIndexes: true,
  extraChecks: channelsStoresCrossChecks,
};

export class ChannelsStoresReplacedDto {
  /** A fresh bearer token for the calling client */
  @ApiProperty({ example: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9...' })
  accessToken: string;
}

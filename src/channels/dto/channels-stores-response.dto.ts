import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { SCHEDULE_DAYS, type ScheduleDay } from '../channels-stores.types.js';

/*
 * GET /v3/channels-stores: the stored configuration in the request's shape. Every field of the spec
 * is present (null when it was not sent), numbers are JSON numbers, and the properties the spec does
 * not list come back as they were sent.
 */

export class ScheduleResponseDto {
  @ApiProperty({ enum: SCHEDULE_DAYS, example: 'MONDAY' })
  day: ScheduleDay;

  @ApiProperty({ description: '`HH:MM`', example: '11:00' })
  startTime: string;

  @ApiProperty({ description: '`HH:MM`; before `startTime` means past midnight', example: '22:30' })
  endTime: string;

  @ApiPropertyOptional({ description: 'Only on `SPECIAL` entries', format: 'date', nullable: true, type: String, example: '2025-12-25' })
  startDate?: string | null;

  @ApiPropertyOptional({ description: 'Only on `SPECIAL` entries', format: 'date', nullable: true, type: String, example: '2025-12-25' })
  endDate?: string | null;
}

export class StoreServiceResponseDto {
  @ApiProperty({ example: 'DELIVERY' })
  name: string;

  @ApiProperty({ nullable: true, type: Boolean, example: true })
  active: boolean | null;
}

export class SchedulesByChannelResponseDto {
  @ApiProperty({ example: 'BN-APP' })
  channelId: string;

  @ApiProperty({ type: [ScheduleResponseDto] })
  schedules: ScheduleResponseDto[];
}

export class TaxesInfoResponseDto {
  @ApiProperty({ nullable: true, type: Number, example: 9.25 })
  taxRate: number | null;

  @ApiProperty({ nullable: true, type: Number, example: 12 })
  vatRatePercentage: number | null;
}

export class ContactInfoResponseDto {
  @ApiProperty({ nullable: true, type: String, example: '+55 11 3061-0000' })
  phone: string | null;

  @ApiProperty({ nullable: true, type: String, example: 'Rua dos Pinheiros, 1200 - Pinheiros, São Paulo - SP' })
  address: string | null;
}

export class DeliveryInfoResponseDto {
  @ApiProperty({ nullable: true, type: String, description: 'Text (a number sent is returned as text)', example: '35' })
  cookTime: string | null;

  @ApiProperty({ nullable: true, type: 'integer', example: 3 })
  deliveryId: number | null;

  @ApiProperty({ nullable: true, type: String, description: 'Decimal text, as the spec types it', example: '25.00' })
  minimumOrder: string | null;

  @ApiProperty({ nullable: true, type: Number, description: 'Exactly as sent', example: 1.9999 })
  shippingCost: number | null;
}

export class LocationInfoResponseDto {
  @ApiProperty({ nullable: true, type: String, example: 'São Paulo' })
  city: string | null;

  @ApiProperty({ nullable: true, type: String, description: 'Decimal text, as sent', example: '-23.5629' })
  latitude: string | null;

  @ApiProperty({ nullable: true, type: String, description: 'Decimal text, as sent', example: '-46.6826' })
  longitude: string | null;
}

export class StoreResponseDto {
  @ApiProperty({ nullable: true, type: String, example: 'Pizzaria Bella Napoli - Pinheiros' })
  name: string | null;

  @ApiProperty({ nullable: true, type: Boolean, example: true })
  active: boolean | null;

  @ApiProperty({ type: 'integer', example: 1201 })
  storeId: number;

  @ApiProperty({ nullable: true, type: 'integer', example: 1350 })
  vendorId: number | null;

  @ApiProperty({ nullable: true, type: String, example: 'BN-PIN' })
  storeCode: string | null;

  @ApiProperty({ type: [StoreServiceResponseDto] })
  services: StoreServiceResponseDto[];

  @ApiProperty({ type: [ScheduleResponseDto], description: 'Opening hours of the store itself' })
  schedules: ScheduleResponseDto[];

  @ApiProperty({ type: [SchedulesByChannelResponseDto] })
  schedulesByChannel: SchedulesByChannelResponseDto[];

  @ApiProperty({ type: TaxesInfoResponseDto })
  taxesInfo: TaxesInfoResponseDto;

  @ApiProperty({ type: ContactInfoResponseDto })
  contactInfo: ContactInfoResponseDto;

  @ApiProperty({ type: DeliveryInfoResponseDto })
  deliveryInfo: DeliveryInfoResponseDto;

  @ApiProperty({ type: LocationInfoResponseDto })
  locationInfo: LocationInfoResponseDto;

  @ApiProperty({ type: [String], example: ['BN-APP', 'BN-MARKETPLACE'] })
  storeChannels: string[];

  @ApiProperty({
    description: 'The fiscal group whose stores hold `store_id` equal to this `storeId` (as text), or null',
    nullable: true,
    type: String,
    format: 'uuid',
    example: '3f1c2b8e-7a4d-4f7e-9c1a-2b3d4e5f6a7b',
  })
  fiscalGroupId: string | null;
}

export class RelatedListResponseDto {
  @ApiProperty({ example: 'L-100' })
  listId: string;

  @ApiProperty({ nullable: true, type: String, example: 'Cardápio principal' })
  listName: string | null;
}

export class AdditionalInfoResponseDto {
  @ApiProperty({ nullable: true, type: String, example: 'm-88' })
  mediaId: string | null;

  @ApiProperty({ nullable: true, type: String, example: 'app' })
  mediaName: string | null;

  @ApiProperty({ type: [RelatedListResponseDto] })
  relatedLists: RelatedListResponseDto[];
}

export class ChannelResponseDto {
  @ApiProperty({ nullable: true, type: Boolean, example: true })
  active: boolean | null;

  @ApiProperty({ nullable: true, type: String, example: 'App próprio' })
  channel: string | null;

  @ApiProperty({ nullable: true, type: 'integer', example: 1350 })
  vendorId: number | null;

  @ApiProperty({ example: 'BN-APP' })
  channelId: string;

  @ApiProperty({ nullable: true, type: String, example: 'Bella Napoli App' })
  channelReferenceName: string | null;

  @ApiProperty({ type: AdditionalInfoResponseDto })
  additionalInfo: AdditionalInfoResponseDto;
}

export class ChannelsStoresResponseDto {
  @ApiProperty({ type: [StoreResponseDto] })
  stores: StoreResponseDto[];

  @ApiProperty({ type: [ChannelResponseDto] })
  channels: ChannelResponseDto[];
}

import { ApiProperty } from '@nestjs/swagger';
import type { ScheduleDay } from '../channels-stores.types.js';

/*
 * GET /v3/channels-stores: the stored configuration in the request's shape. Every field of the spec
 * is present (null when it was not sent), numbers are JSON numbers, and the properties the spec does
 * not list come back as they were sent.
 */

export class ScheduleResponseDto {
  @ApiProperty({ example: 'MONDAY' })
  day: ScheduleDay;

  /** `HH:MM` */
  @ApiProperty({ example: '11:00' })
  startTime: string;

  /** `HH:MM`; before `startTime` means past midnight */
  @ApiProperty({ example: '22:30' })
  endTime: string;

  /** Only on `SPECIAL` entries */
  @ApiProperty({ format: 'date', example: '2025-12-25' })
  startDate?: string | null;

  /** Only on `SPECIAL` entries */
  @ApiProperty({ format: 'date', example: '2025-12-25' })
  endDate?: string | null;
}

export class StoreServiceResponseDto {
  @ApiProperty({ example: 'DELIVERY' })
  name: string;

  @ApiProperty({ example: true })
  active: boolean | null;
}

export class SchedulesByChannelResponseDto {
  @ApiProperty({ example: 'BN-APP' })
  channelId: string;

  schedules: ScheduleResponseDto[];
}

export class TaxesInfoResponseDto {
  @ApiProperty({ example: 9.25 })
  taxRate: number | null;

  @ApiProperty({ example: 12 })
  vatRatePercentage: number | null;
}

export class ContactInfoResponseDto {
  @ApiProperty({ example: '+55 11 3061-0000' })
  phone: string | null;

  @ApiProperty({ example: 'Rua dos Pinheiros, 1200 - Pinheiros, São Paulo - SP' })
  address: string | null;
}

export class DeliveryInfoResponseDto {
  /** Text (a number sent is returned as text) */
  @ApiProperty({ example: '35' })
  cookTime: string | null;

  @ApiProperty({ type: 'integer', example: 3 })
  deliveryId: number | null;

  /** Decimal text, as the spec types it */
  @ApiProperty({ example: '25.00' })
  minimumOrder: string | null;

  /** Exactly as sent */
  @ApiProperty({ example: 1.9999 })
  shippingCost: number | null;
}

export class LocationInfoResponseDto {
  @ApiProperty({ example: 'São Paulo' })
  city: string | null;

  /** Decimal text, as sent */
  @ApiProperty({ example: '-23.5629' })
  latitude: string | null;

  /** Decimal text, as sent */
  @ApiProperty({ example: '-46.6826' })
  longitude: string | null;
}

export class StoreResponseDto {
  @ApiProperty({ example: 'Pizzaria Bella Napoli - Pinheiros' })
  name: string | null;

  @ApiProperty({ example: true })
  active: boolean | null;

  @ApiProperty({ type: 'integer', example: 1201 })
  storeId: number;

  @ApiProperty({ type: 'integer', example: 1350 })
  vendorId: number | null;

  @ApiProperty({ example: 'BN-PIN' })
  storeCode: string | null;

  services: StoreServiceResponseDto[];

  /** Opening hours of the store itself */
  schedules: ScheduleResponseDto[];

  schedulesByChannel: SchedulesByChannelResponseDto[];

  taxesInfo: TaxesInfoResponseDto;

  contactInfo: ContactInfoResponseDto;

  deliveryInfo: DeliveryInfoResponseDto;

  locationInfo: LocationInfoResponseDto;

  @ApiProperty({ example: ['BN-APP', 'BN-MARKETPLACE'] })
  storeChannels: string[];

  /** The fiscal group whose stores hold `store_id` equal to this `storeId` (as text), or null */
  @ApiProperty({ format: 'uuid', example: '3f1c2b8e-7a4d-4f7e-9c1a-2b3d4e5f6a7b' })
  fiscalGroupId: string | null;
}

export class RelatedListResponseDto {
  @ApiProperty({ example: 'L-100' })
  listId: string;

  @ApiProperty({ example: 'Cardápio principal' })
  listName: string | null;
}

export class AdditionalInfoResponseDto {
  @ApiProperty({ example: 'm-88' })
  mediaId: string | null;

  @ApiProperty({ example: 'app' })
  mediaName: string | null;

  relatedLists: RelatedListResponseDto[];
}

export class ChannelResponseDto {
  @ApiProperty({ example: true })
  active: boolean | null;

  @ApiProperty({ example: 'App próprio' })
  channel: string | null;

  @ApiProperty({ type: 'integer', example: 1350 })
  vendorId: number | null;

  @ApiProperty({ example: 'BN-APP' })
  channelId: string;

  @ApiProperty({ example: 'Bella Napoli App' })
  channelReferenceName: string | null;

  additionalInfo: AdditionalInfoResponseDto;
}

export class ChannelsStoresResponseDto {
  stores: StoreResponseDto[];

  channels: ChannelResponseDto[];
}

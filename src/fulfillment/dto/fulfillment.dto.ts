import { OpenObject } from '../../common/openapi/open-object.decorator.js';
import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsDefined,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { ORDER_STATUSES, type OrderStatus } from '../../orders/order-status.js';
import { IsIdText, MAX_ID_LENGTH } from '../../common/id-text.js';
import { IsAddress, IsCoordinate } from './validators.js';

const REQUIRED = { message: '$property is required' };
const NOT_BLANK = { message: '$property must not be blank' };

/** OpenAPI schema of an id sent as text or as a number. */
const ID_SCHEMA = {
  oneOf: [
    { type: 'string', minLength: 1, maxLength: 100 },
    { type: 'integer', minimum: 0 },
  ],
};

export class ShippingCoordinateDto {
  /** Decimal degrees, -90 to 90 (text or number) */
  @ApiProperty({ example: '-23.5629', oneOf: [{ type: 'string' }, { type: 'number' }] })
  @IsDefined(REQUIRED)
  @IsCoordinate(90)
  latitude: string | number;

  /** Decimal degrees, -180 to 180 (text or number) */
  @ApiProperty({ example: '-46.6826', oneOf: [{ type: 'string' }, { type: 'number' }] })
  @IsDefined(REQUIRED)
  @IsCoordinate(180)
  longitude: string | number;
}

export class TrackingInfoDto {
  /** The carrier's tracking page */
  @ApiProperty({ example: 'https://track.example.com/BR123456789' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  trackurl?: string;

  @ApiProperty({ example: 'BR123456789' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  trackingNumber?: string;

  /** Code the customer gives the courier on delivery */
  @ApiProperty({ example: '4821' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  deliveryConfirmationCode?: string;

  /** The courier's positions, oldest first */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1000)
  @ValidateNested({ each: true })
  @Type(() => ShippingCoordinateDto)
  shippingCoordinates?: ShippingCoordinateDto[];
}

/** Properties beyond the documented ones are kept with the record (the POS sends its partners' objects). */
@OpenObject()
export class TrackingRequestDto {
  @ApiProperty({ description: 'The `orderId` of the order (text or number, compared as text)', example: 'ORD-2025-000123', ...ID_SCHEMA })
  @IsDefined(REQUIRED)
  @IsIdText(MAX_ID_LENGTH)
  order_id: string | number;

  @ApiProperty({
    description: `An order status (${ORDER_STATUSES.join(', ')}) or a status alias (\`GET /api/admin/status-aliases\`, for example \`En Camino\`), matched ignoring case, accents and separators, is applied to the order by the status rules (409 when the move is not allowed). Any other text is the carrier's own status and is only kept on the tracking record.`,
    example: 'DISPATCHED',
  })
  @IsDefined(REQUIRED)
  @IsString()
  @Length(1, 100)
  @Matches(/\S/, NOT_BLANK)
  status: string;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => TrackingInfoDto)
  trackingInfo?: TrackingInfoDto;
}

/** Properties beyond the documented ones are kept with the record (the POS sends its partners' objects). */
@OpenObject()
export class TransferRequestDto {
  @ApiProperty({ description: 'The `orderId` of the order (text or number)', example: 'ORD-2025-000123', ...ID_SCHEMA })
  @IsDefined(REQUIRED)
  @IsIdText(MAX_ID_LENGTH)
  order: string | number;

  @ApiProperty({
    description:
      "The order's current store: its store id, or the `storeCode` configured for it in `/v3/channels-stores` (text or number). Otherwise 409.",
    example: 'BN-PIN',
    ...ID_SCHEMA,
  })
  @IsDefined(REQUIRED)
  @IsIdText(MAX_ID_LENGTH)
  from_store: string | number;

  @ApiProperty({
    description:
      'The target store: a configured store id, else a configured `storeCode` (resolved to its store id), else taken as the store id itself. Equal to `from_store`: 400.',
    example: 'BN-MOE',
    ...ID_SCHEMA,
  })
  @IsDefined(REQUIRED)
  @IsIdText(MAX_ID_LENGTH)
  to_store: string | number;

  /** Name of the person processing the transfer */
  @ApiProperty({ example: 'Carla Mendes' })
  @IsDefined(REQUIRED)
  @IsString()
  @Length(1, 200)
  @Matches(/\S/, NOT_BLANK)
  processed_by: string;

  @ApiProperty({ example: 'Oven out of order at Pinheiros' })
  @IsDefined(REQUIRED)
  @IsString()
  @Length(1, 1000)
  @Matches(/\S/, NOT_BLANK)
  transfer_reason: string;

  /** Delivery address for the target store, as an object or a text; stored as sent */
  @ApiProperty({
    oneOf: [
      { type: 'object', additionalProperties: true },
      { type: 'string', maxLength: 1000 },
    ],
    example: { street: 'Av. Ibirapuera', number: '2927', city: 'São Paulo', state: 'SP', zipCode: '04029-200' },
  })
  @IsOptional()
  @IsAddress()
  shipping_address?: Record<string, unknown> | string;
}

/** Properties beyond the documented ones are kept with the record (the POS sends its partners' objects). */
@OpenObject()
export class DispatchedRequestDto {
  @ApiProperty({ description: 'The `orderId` of the pickup order (text or number)', example: 'ORD-2025-000124', ...ID_SCHEMA })
  @IsDefined(REQUIRED)
  @IsIdText(MAX_ID_LENGTH)
  codigo_app: string | number;

  @ApiProperty({
    description: "The point of sale's transaction id, stored with the dispatch (text or number)",
    example: 'TX-998877',
    ...ID_SCHEMA,
  })
  @IsDefined(REQUIRED)
  @IsIdText(MAX_ID_LENGTH)
  id_transaccion: string | number;
}

/** Properties beyond the documented ones are kept with the record (the POS sends its partners' objects). */
@OpenObject()
export class StatusRequestDto {
  @ApiProperty({ description: 'The `orderId` of the order (text or number)', example: 'ORD-2025-000123', ...ID_SCHEMA })
  @IsDefined(REQUIRED)
  @IsIdText(MAX_ID_LENGTH)
  order_id: string | number;

  @ApiProperty({
    description:
      `The new status: an order status (${ORDER_STATUSES.join(', ')}) or a point-of-sale label from the alias table (\`GET /api/admin/status-aliases\`, for example \`Por Asignar\`), ` +
      'matched ignoring case, accents, surrounding spaces and space/`_`/`-`. A label that matches neither is 400, listing the accepted values.',
    example: 'ACCEPTED',
  })
  @IsDefined(REQUIRED)
  @IsString()
  @Length(1, 100)
  @Matches(/\S/, NOT_BLANK)
  status: string;
}

/** 200 of every fulfillment action. */
export class FulfillmentResponseDto {
  @ApiProperty({ example: 'Order ORD-2025-000123 changed from ENRICHED to ACCEPTED' })
  message: string;

  /** Always `success` on a 200 (the only success signal point-of-sale clients check) */
  @ApiProperty({ example: 'success' })
  status: 'success';

  /** The order's status after the call */
  @ApiProperty({ example: 'ACCEPTED' })
  orderStatus: OrderStatus;
}

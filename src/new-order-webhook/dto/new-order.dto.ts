import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayNotEmpty,
  IsArray,
  IsDefined,
  IsEmail,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Min,
  ValidateBy,
  ValidateNested,
  type ValidationOptions,
} from 'class-validator';
import { ApiError } from '../../common/errors/api-error.js';
import type { OpenBodyOptions } from '../../common/http/open-body.js';
import { IsIdText, MAX_ID_LENGTH } from '../../common/id-text.js';
import { ORDER_STATUSES, SERVICE_OWNED_STATUSES } from '../../orders/order-status.js';

/*
 * The platform's new-order body ("New-order webhook" in docs/api-decisions.md). Properties not declared here are kept: the body is
 * stored as received. Each property reports its first problem only (`firstProblemOnly`), and
 * class-validator checks a property's decorators from the bottom up: the type check comes last.
 */

const NOT_AN_ID = { message: 'must be a non-empty string or a number' };
const POSITIVE = { message: 'must be a number greater than 0' };
const NOT_NEGATIVE = { message: 'must be a number greater than or equal to 0' };

/** A number greater than `limit` (class-validator's `@Min` includes its limit). */
function IsGreaterThan(limit: number, options: ValidationOptions) {
  return ValidateBy(
    { name: 'isGreaterThan', constraints: [limit], validator: { validate: (value) => (value as number) > limit } },
    options,
  );
}

export class NewOrderCustomerDto {
  @ApiProperty({ example: 'CUST-5521' })
  @IsOptional()
  @IsIdText(undefined, NOT_AN_ID)
  id?: string;

  @ApiProperty({ example: 'Ana Souza' })
  @IsOptional()
  @IsString({ message: 'must be a string' })
  name?: string;

  @ApiProperty({ example: 'ana.souza@example.com.br' })
  @IsEmail({}, { message: 'must be an e-mail address' })
  @IsDefined({ message: 'is required' })
  email: string;
}

export class NewOrderItemDto {
  /** Text or number */
  @ApiProperty({ example: 'burger-01' })
  @IsOptional()
  @IsIdText(undefined, NOT_AN_ID)
  product_id?: string;

  /** Greater than 0 */
  @ApiProperty({ exclusiveMinimum: true, minimum: 0, example: 2 })
  @IsGreaterThan(0, POSITIVE)
  @IsNumber({}, POSITIVE)
  quantity: number;

  @ApiProperty({ example: 25.9 })
  @Min(0, NOT_NEGATIVE)
  @IsNumber({}, NOT_NEGATIVE)
  price: number;
}

export class NewOrderRequestDto {
  /** The platform's order id (non-empty text of at most 100 characters, or a number); the order's `orderId` */
  @ApiProperty({
    oneOf: [
      { type: 'string', minLength: 1, maxLength: 100 },
      { type: 'integer', minimum: 0 },
    ],
    example: 'PLT-2025-000777',
  })
  @IsIdText(MAX_ID_LENGTH)
  @IsDefined({ message: 'is required' })
  order_id: string | number;

  @ApiProperty({
    description: `Stored as the order status when it is one of ${ORDER_STATUSES.filter((status) => !SERVICE_OWNED_STATUSES.includes(status)).join(', ')} (or an alias of one); any other value (or none) stores RECEIVED. ${SERVICE_OWNED_STATUSES.join(', ')} are given by the service only, after enrichment or forwarding: 400 \`invalid_request\``,
    example: 'RECEIVED',
  })
  @IsOptional()
  @IsString({ message: 'must be a string' })
  status?: string;

  @ValidateNested()
  @Type(() => NewOrderCustomerDto)
  @IsObject({ message: 'is required and must be an object' })
  @IsDefined({ message: 'is required and must be an object' })
  customer: NewOrderCustomerDto;

  @ValidateNested({ each: true, message: 'must be an object' })
  @Type(() => NewOrderItemDto)
  @ArrayNotEmpty({ message: 'must not be empty' })
  @IsArray({ message: 'is required and must be an array' })
  items: NewOrderItemDto[];

  @ApiProperty({ example: 51.8 })
  @Min(0, NOT_NEGATIVE)
  @IsNumber({}, NOT_NEGATIVE)
  total: number;
}

/** How the body is read: unknown properties kept, every problem in one 400 with `items[0].price` paths. */
export const NEW_ORDER_BODY: OpenBodyOptions = {
  notAnObject: () => ApiError.badRequest('The body must be a JSON object'),
  firstProblemOnly: true,
  bracketIndexes: true,
};

export class NewOrderResponseDto {
  @ApiProperty({ example: 'OK' })
  status: 'OK';
}

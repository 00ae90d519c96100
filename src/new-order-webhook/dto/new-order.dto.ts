import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ORDER_STATUSES } from '../../orders/order-status.js';

export class NewOrderCustomerDto {
  @ApiPropertyOptional({ example: 'CUST-5521' })
  id?: string;

  @ApiPropertyOptional({ example: 'Ana Souza' })
  name?: string;

  @ApiProperty({ format: 'email', example: 'ana.souza@example.com.br' })
  email: string;
}

export class NewOrderItemDto {
  @ApiPropertyOptional({ description: 'Text or number', example: 'burger-01' })
  product_id?: string;

  @ApiProperty({ exclusiveMinimum: true, minimum: 0, description: 'Greater than 0', example: 2 })
  quantity: number;

  @ApiProperty({ minimum: 0, example: 25.9 })
  price: number;
}

/** Documentation of the body; it is validated by `readNewOrder` (unknown properties are kept). */
export class NewOrderRequestDto {
  @ApiProperty({
    description: "The platform's order id (non-empty text of at most 100 characters, or a number); the order's `orderId`",
    oneOf: [
      { type: 'string', minLength: 1, maxLength: 100 },
      { type: 'integer', minimum: 0 },
    ],
    example: 'PLT-2025-000777',
  })
  order_id: string;

  @ApiPropertyOptional({
    description: `Stored as the order status when it is one of ${ORDER_STATUSES.join(', ')}; any other value (or none) stores RECEIVED`,
    example: 'RECEIVED',
  })
  status?: string;

  @ApiProperty({ type: NewOrderCustomerDto })
  customer: NewOrderCustomerDto;

  @ApiProperty({ type: [NewOrderItemDto], minItems: 1 })
  items: NewOrderItemDto[];

  @ApiProperty({ minimum: 0, example: 51.8 })
  total: number;
}

export class NewOrderResponseDto {
  @ApiProperty({ enum: ['OK'], example: 'OK' })
  status: 'OK';
}

import { ApiProperty, OmitType } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { OrderListQuery } from '../../orders/dto/order-list.query.js';
import { ORDER_STATUSES, type OrderStatus } from '../../orders/order-status.js';

/** Query of `GET /api/admin/reports/orders.csv`: the order list's filters, without its paging. */
export class OrderExportQuery extends OmitType(OrderListQuery, ['page', 'pageSize', 'status'] as const) {
  // Declared again with its enum: the status union's schema comes from the CLI plugin, whose metadata a mapped type
  // copies only when it was loaded first, so the document would depend on the order modules load in.
  @ApiProperty({ enum: ORDER_STATUSES, example: 'DELIVERED', required: false, description: 'Only orders in this status' })
  @IsOptional()
  @IsIn(ORDER_STATUSES, { message: `must be one of ${ORDER_STATUSES.join(', ')}` })
  status?: OrderStatus;
}

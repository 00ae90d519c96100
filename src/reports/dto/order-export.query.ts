import { OmitType } from '@nestjs/swagger';
import { OrderListQuery } from '../../orders/dto/order-list.query.js';

/** Query of `GET /api/admin/reports/orders.csv`: the order list's filters, without its paging. */
export class OrderExportQuery extends OmitType(OrderListQuery, ['page', 'pageSize'] as const) {}

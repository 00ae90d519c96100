import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../auth/auth.decorators.js';
import { ErrorBodies } from '../common/http/error-bodies.decorator.js';
import { ErrorFamily } from '../common/errors/error-families.js';
import { ApiErrors } from '../common/openapi/api-errors.decorator.js';
import { ForwardingStatsDto, OrderIdsTakenDto, OrdersPerHourDto, StatsRangeQuery, StoresMissingFiscalGroupDto } from './dto/stats.dto.js';
import { MISSING_STORES_SHOWN, StatsService } from './stats.service.js';

const RANGE_400 = { 400: 'range is not 24h or 7d, or the parameter is unknown' };

@ApiTags('Statistics (admin)')
@ErrorBodies(ErrorFamily.AdminApi)
@Controller('admin/stats')
@Auth('admin', { role: 'support' })
export class StatsController {
  constructor(private readonly stats: StatsService) {}

  @Get('orders-per-hour')
  @ApiOperation({
    summary: 'Orders per hour by status',
    description:
      'Orders created in each hour (UTC) of the last 24 hours or 7 days, the current hour last, counted by their status now. ' +
      'Every hour is present, with zeros, so a chart has no gaps.',
  })
  @ApiOkResponse({ type: OrdersPerHourDto })
  @ApiErrors([400], RANGE_400)
  ordersPerHour(@Query() query: StatsRangeQuery): Promise<OrdersPerHourDto> {
    return this.stats.ordersPerHour(query.range ?? '24h');
  }

  @Get('forwarding')
  @ApiOperation({
    summary: 'Forward outcomes and retry-queue depth',
    description:
      'Every webhook delivery attempt of the period (first forwards, retries and redeliveries) by outcome, and the retry queue now (due and scheduled).',
  })
  @ApiOkResponse({ type: ForwardingStatsDto })
  @ApiErrors([400], RANGE_400)
  forwarding(@Query() query: StatsRangeQuery): Promise<ForwardingStatsDto> {
    return this.stats.forwarding(query.range ?? '24h');
  }

  @Get('order-ids-taken')
  @ApiOperation({
    summary: 'Order ids taken from store-limited clients',
    description:
      'How many orders a store-limited client stored first under its store were moved to `<orderId>#moved-<n>` in the period, ' +
      "because the platform sent that orderId for another store (the platform's order took the id; each move is in the audit log as `take-order-id`).",
  })
  @ApiOkResponse({ type: OrderIdsTakenDto })
  @ApiErrors([400], RANGE_400)
  orderIdsTaken(@Query() query: StatsRangeQuery): Promise<OrderIdsTakenDto> {
    return this.stats.orderIdsTaken(query.range ?? '7d');
  }

  @Get('stores-missing-fiscal-group')
  @ApiOperation({
    summary: 'Stores missing a fiscal group',
    description:
      'Stores whose orders of the period are still ENRICHMENT_FAILED (FISCAL_GROUP_NOT_FOUND) and that no fiscal group holds now, ' +
      `most failed orders first; at most ${MISSING_STORES_SHOWN}, with \`total\` counting them all. Creating a group for the store removes it from the list.`,
  })
  @ApiOkResponse({ type: StoresMissingFiscalGroupDto })
  @ApiErrors([400], RANGE_400)
  storesMissingFiscalGroup(@Query() query: StatsRangeQuery): Promise<StoresMissingFiscalGroupDto> {
    return this.stats.storesMissingFiscalGroup(query.range ?? '7d');
  }
}

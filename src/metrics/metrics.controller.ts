import { Controller, Get, Header, Inject } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '../auth/auth.decorators.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ApiError } from '../common/errors/api-error.js';
import { MetricsService } from './metrics.service.js';
import { ErrorBodies } from '../common/http/error-bodies.decorator.js';
import { ErrorFamily } from '../common/errors/error-families.js';

@ApiTags('Operations')
@ErrorBodies(ErrorFamily.AdminApi)
@Controller('metrics')
export class MetricsController {
  constructor(
    private readonly metrics: MetricsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @Public()
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  @ApiOperation({
    summary: 'Prometheus metrics',
    description: 'Request counts and latency by route and status, database pool gauges, process metrics. Off when METRICS_ENABLED=false.',
  })
  @ApiProduces('text/plain')
  @ApiResponse({
    status: 200,
    description: 'Prometheus text format',
    content: {
      'text/plain': { schema: { type: 'string', example: 'http_requests_total{method="GET",route="/api/health/live",status="200"} 3' } },
    },
  })
  @ApiNotFoundResponse({ description: 'Metrics are turned off' })
  async scrape(): Promise<string> {
    if (!this.config.metricsEnabled) throw ApiError.notFound('Metrics are turned off');
    return this.metrics.registry.metrics();
  }
}

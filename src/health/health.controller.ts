import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../auth/auth.decorators.js';
import { LivenessDto, ReadinessDto } from './dto/health.dto.js';
import { ReadinessService } from './readiness.service.js';
import { ErrorBodies } from '../common/http/error-bodies.decorator.js';
import { ErrorFamily } from '../common/errors/error-families.js';

@ApiTags('Operations')
@ErrorBodies(ErrorFamily.AdminApi)
@Controller('health')
export class HealthController {
  constructor(private readonly readiness: ReadinessService) {}

  @Get('live')
  @Public()
  @ApiOperation({
    summary: 'Liveness: the process is up',
    description: 'Always 200 while the process runs; for the orchestrator to restart a hung process.',
  })
  @ApiOkResponse({ type: LivenessDto })
  live(): LivenessDto {
    return { status: 'ok' };
  }

  @Get('ready')
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Readiness: the database answers, migrations are applied and the instance is not shutting down',
    description: 'For the load balancer: 503 while the database is unreachable, migrations are pending or the instance is draining.',
  })
  @ApiOkResponse({ type: ReadinessDto })
  @ApiServiceUnavailableResponse({ type: ReadinessDto, description: 'Not ready' })
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<ReadinessDto> {
    const { ready, checks } = await this.readiness.check();
    reply.status(ready ? 200 : 503);
    reply.header('cache-control', 'no-store');
    return { status: ready ? 'ok' : 'unavailable', checks };
  }
}

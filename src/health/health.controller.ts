import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { DataSource } from 'typeorm';
import { Public } from '../auth/auth.decorators.js';
import { LifecycleState } from '../common/http/lifecycle-state.js';

class LivenessDto {
  @ApiProperty({ enum: ['ok'], example: 'ok' })
  status: 'ok';
}

class ReadinessChecksDto {
  @ApiProperty({ enum: ['up', 'down'], example: 'up' })
  database: 'up' | 'down';

  @ApiProperty({ enum: ['applied', 'pending', 'unknown'], example: 'applied' })
  migrations: 'applied' | 'pending' | 'unknown';

  @ApiProperty({ description: 'False while the instance is shutting down', example: true })
  accepting: boolean;
}

class ReadinessDto {
  @ApiProperty({ enum: ['ok', 'unavailable'], example: 'ok' })
  status: 'ok' | 'unavailable';

  @ApiProperty({ type: ReadinessChecksDto })
  checks: ReadinessChecksDto;
}

const CHECK_TIMEOUT_MS = 2000;

@ApiTags('Operations')
@Controller('health')
export class HealthController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly lifecycle: LifecycleState,
  ) {}

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
    const checks: ReadinessChecksDto = { database: 'down', migrations: 'unknown', accepting: !this.lifecycle.draining };
    try {
      await withTimeout(this.dataSource.query('SELECT 1'), CHECK_TIMEOUT_MS);
      checks.database = 'up';
      checks.migrations = (await withTimeout(this.dataSource.showMigrations(), CHECK_TIMEOUT_MS)) ? 'pending' : 'applied';
    } catch {
      // Reported through the checks below.
    }
    const ok = checks.database === 'up' && checks.migrations === 'applied' && checks.accepting;
    reply.status(ok ? 200 : 503);
    reply.header('cache-control', 'no-store');
    return { status: ok ? 'ok' : 'unavailable', checks };
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timed out')), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

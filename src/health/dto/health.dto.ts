import { ApiProperty } from '@nestjs/swagger';

export class LivenessDto {
  @ApiProperty({ example: 'ok' })
  status: 'ok';
}

export class ReadinessChecksDto {
  @ApiProperty({ example: 'up' })
  database: 'up' | 'down';

  @ApiProperty({ example: 'applied' })
  migrations: 'applied' | 'pending' | 'unknown';

  /** False while the instance is shutting down */
  @ApiProperty({ example: true })
  accepting: boolean;
}

export class ReadinessDto {
  @ApiProperty({ example: 'ok' })
  status: 'ok' | 'unavailable';

  checks: ReadinessChecksDto;
}

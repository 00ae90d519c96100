import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { MAX_INTEGER_PARAM, plainInteger } from './query-params.js';

export class PageQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    description: 'Page number, from 1',
    minimum: 1,
    maximum: MAX_INTEGER_PARAM,
    default: 1,
    example: 1,
  })
  @IsOptional()
  @Transform(plainInteger)
  @IsInt()
  @Min(1)
  @Max(MAX_INTEGER_PARAM)
  page?: number;

  @ApiPropertyOptional({ type: 'integer', description: 'Items per page', minimum: 1, maximum: 100, default: 20, example: 20 })
  @IsOptional()
  @Transform(plainInteger)
  @IsInt()
  @Min(1)
  @Max(100)
  pageSize?: number;
}

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
  totalPages: number;
}

export function pageOf<T>(items: T[], total: number, page: number, pageSize: number): Page<T> {
  return { items, total, page, pageSize, totalPages: total === 0 ? 0 : Math.ceil(total / pageSize) };
}

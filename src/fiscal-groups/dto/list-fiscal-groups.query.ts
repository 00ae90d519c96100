import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, Length } from 'class-validator';
import { PageQueryDto } from '../../common/http/pagination.js';
import { UF_CODES } from '../uf.js';

export class ListFiscalGroupsQuery extends PageQueryDto {
  /** Only groups of this state */
  @ApiProperty({ enum: UF_CODES, example: 'SP' })
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? value.toUpperCase() : value))
  @IsIn(UF_CODES, { message: 'must be one of the 27 Brazilian state codes' })
  uf?: string;

  /** Only the group holding this store */
  @ApiProperty({ example: 'store-0042' })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  storeId?: string;
}

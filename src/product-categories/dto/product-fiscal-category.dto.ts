import { ApiHideProperty, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length, Matches, ValidateIf } from 'class-validator';
import { ForbiddenProperty } from '../../common/http/forbidden-property.js';

const NCM_RULE = { message: 'must be an NCM code of 8 digits' };

export class CreateProductFiscalCategoryDto {
  @ApiProperty({ description: "The product's id on the ordering platform", example: 'prod-cola-350', minLength: 1, maxLength: 100 })
  @IsString()
  @Length(1, 100)
  productId: string;

  @ApiProperty({ example: 'Coca-Cola lata 350 ml', maxLength: 300 })
  @IsString()
  @Length(1, 300)
  productName: string;

  @ApiProperty({ description: 'NCM code (8 digits)', example: '22021000', pattern: '^\\d{8}$' })
  @IsString()
  @Matches(/^\d{8}$/, NCM_RULE)
  ncm: string;

  @ApiPropertyOptional({
    description: "Another system's id for the same product; unique when set",
    example: 'SKU-778899',
    nullable: true,
    type: String,
    maxLength: 100,
  })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  externalProductId?: string | null;
}

/** Only the properties sent change. `productId` is the path parameter and cannot be sent. */
export class UpdateProductFiscalCategoryDto {
  @ApiHideProperty()
  @ForbiddenProperty('cannot be sent: the productId is the path parameter and does not change')
  productId?: never;

  @ApiPropertyOptional({ example: 'Coca-Cola lata 350 ml', maxLength: 300 })
  @IsOptional()
  @IsString()
  @Length(1, 300)
  productName?: string;

  @ApiPropertyOptional({ description: 'NCM code (8 digits)', example: '22021000', pattern: '^\\d{8}$' })
  @IsOptional()
  @IsString()
  @Matches(/^\d{8}$/, NCM_RULE)
  ncm?: string;

  @ApiPropertyOptional({ description: 'Set to null to clear it', example: 'SKU-778899', nullable: true, type: String, maxLength: 100 })
  @ValidateIf((_object, value) => value !== null && value !== undefined)
  @IsString()
  @Length(1, 100)
  externalProductId?: string | null;
}

export class ProductFiscalCategoryResponseDto {
  @ApiProperty({ example: 'prod-cola-350' })
  productId: string;

  @ApiProperty({ example: 'Coca-Cola lata 350 ml' })
  productName: string;

  @ApiProperty({ example: '22021000' })
  ncm: string;

  @ApiProperty({ nullable: true, type: String, example: 'SKU-778899' })
  externalProductId: string | null;

  @ApiProperty({ format: 'date-time', example: '2026-11-21T12:00:00.000Z' })
  createdAt: string;
}

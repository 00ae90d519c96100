import { ApiHideProperty, ApiProperty } from '@nestjs/swagger';
import { IsOptional, IsString, Length, Matches, ValidateIf } from 'class-validator';
import { ForbiddenProperty } from '../../common/http/forbidden-property.js';
import { OptionalNotNull } from '../../common/http/optional-not-null.js';

const NCM_RULE = { message: 'must be an NCM code of 8 digits' };

export class CreateProductFiscalCategoryDto {
  /** The product's id on the ordering platform */
  @ApiProperty({ example: 'prod-cola-350' })
  @IsString()
  @Length(1, 100)
  productId: string;

  @ApiProperty({ example: 'Coca-Cola lata 350 ml' })
  @IsString()
  @Length(1, 300)
  productName: string;

  /** NCM code (8 digits) */
  @ApiProperty({ example: '22021000' })
  @IsString()
  @Matches(/^\d{8}$/, NCM_RULE)
  ncm: string;

  /** Another system's id for the same product; unique when set */
  @ApiProperty({ example: 'SKU-778899' })
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

  @ApiProperty({ example: 'Coca-Cola lata 350 ml' })
  @OptionalNotNull()
  @IsString()
  @Length(1, 300)
  productName?: string;

  /** NCM code (8 digits) */
  @ApiProperty({ example: '22021000' })
  @OptionalNotNull()
  @IsString()
  @Matches(/^\d{8}$/, NCM_RULE)
  ncm?: string;

  /** Set to null to clear it */
  @ApiProperty({ example: 'SKU-778899' })
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

  @ApiProperty({ example: 'SKU-778899' })
  externalProductId: string | null;

  @ApiProperty({ format: 'date-time', example: '2026-11-21T12:00:00.000Z' })
  createdAt: string;
}

import { ApiProperty } from '@nestjs/swagger';
import { ApiError } from '../../common/errors/api-error.js';
import { DomainErrorCode } from '../../common/errors/error-codes.js';
import { DomainErrorDetailDto, DomainErrorResponseDto } from '../../common/openapi/error-response.dto.js';

/** The `productId` that already has a category. */
export class ProductIdExistsDetailDto extends DomainErrorDetailDto {
  /** The productId sent */
  productId: string;
}

/** 409 PRODUCT_ID_EXISTS: a category with this `productId` exists (change it with PUT); nothing was written. */
export class ProductIdExistsErrorDto extends DomainErrorResponseDto {
  @ApiProperty({ enum: [DomainErrorCode.PRODUCT_ID_EXISTS] })
  error: typeof DomainErrorCode.PRODUCT_ID_EXISTS;

  /** One item, about `productId` */
  details: ProductIdExistsDetailDto[];
}

/** The `externalProductId` another product uses. */
export class ExternalProductIdInUseDetailDto extends DomainErrorDetailDto {
  /** The externalProductId sent */
  externalProductId: string;

  /** The product whose category has it (null when it was removed while this request ran) */
  productId: string | null;
}

/** 409 EXTERNAL_PRODUCT_ID_IN_USE: another product's category has this `externalProductId`; nothing was written. */
export class ExternalProductIdInUseErrorDto extends DomainErrorResponseDto {
  @ApiProperty({ enum: [DomainErrorCode.EXTERNAL_PRODUCT_ID_IN_USE] })
  error: typeof DomainErrorCode.EXTERNAL_PRODUCT_ID_IN_USE;

  /** One item, about `externalProductId` */
  details: ExternalProductIdInUseDetailDto[];
}

export function productIdExists(productId: string): ApiError {
  const detail: ProductIdExistsDetailDto = { field: 'productId', problem: 'already exists', productId };
  return ApiError.domain(DomainErrorCode.PRODUCT_ID_EXISTS, `A product fiscal category with productId "${productId}" already exists`, [
    detail,
  ]);
}

export function externalProductIdInUse(externalProductId: string, productId: string | undefined): ApiError {
  const detail: ExternalProductIdInUseDetailDto = {
    field: 'externalProductId',
    problem: 'is already used by another product',
    externalProductId,
    productId: productId ?? null,
  };
  return ApiError.domain(
    DomainErrorCode.EXTERNAL_PRODUCT_ID_IN_USE,
    `externalProductId "${externalProductId}" is already used by product ${productId ?? '(another product)'}`,
    [detail],
  );
}

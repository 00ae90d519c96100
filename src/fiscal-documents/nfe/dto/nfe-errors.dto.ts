import { ApiProperty } from '@nestjs/swagger';
import { ApiError } from '../../../common/errors/api-error.js';
import { DomainErrorCode } from '../../../common/errors/error-codes.js';
import { DomainErrorDetailDto, DomainErrorResponseDto } from '../../../common/openapi/error-response.dto.js';
import { NFE_PROBLEM_CODES, type NfeProblem, type NfeProblemCode } from '../nfe-layout.js';

/** One reason the order's invoice items cannot be printed: `field` is the item's path in the order. */
export class NfeProblemDto extends DomainErrorDetailDto {
  /** Why: NO_TAX (the item has no taxes: see its warning), NO_CFOP (neither its rule nor the group's `settings.defaultCfop`), ICMS_ST_NOT_COMPUTED (CST 10, 30, 70), ICMS_CST_NOT_SUPPORTED, CSOSN_NOT_SUPPORTED (101, 201, 202, 203, or a 2-digit CST in a Simples Nacional group), PIS_COFINS_CST_NOT_SUPPORTED (03, by quantity), NO_CCLASSTRIB (reform rates without CST_IBSCBS and cClassTrib), CPROD_TOO_LONG (a product id over 60 characters), CPROD_NOT_PRINTABLE, TOO_MANY_ITEMS (over 990 items) */
  @ApiProperty({ enum: NFE_PROBLEM_CODES, example: 'ICMS_ST_NOT_COMPUTED' })
  code: NfeProblemCode;
}

/** 422 NFE_NOT_ISSUABLE: the order's items cannot be printed as NF-e/NFC-e items; one item per cause. */
export class NfeNotIssuableErrorDto extends DomainErrorResponseDto {
  @ApiProperty({ enum: [DomainErrorCode.NFE_NOT_ISSUABLE] })
  error: typeof DomainErrorCode.NFE_NOT_ISSUABLE;

  /** One item per cause, naming the item's path and the cause's code */
  details: NfeProblemDto[];
}

export function nfeNotIssuable(orderId: string, problems: NfeProblem[]): ApiError {
  return ApiError.domain(
    DomainErrorCode.NFE_NOT_ISSUABLE,
    `The items of order ${orderId} cannot be printed on an NF-e or NFC-e: ${problems.length} problem(s), listed in details`,
    problems,
  );
}

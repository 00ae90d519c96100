import { ApiProperty } from '@nestjs/swagger';
import { GENERIC_ERROR_CODES, OAUTH_ERROR_CODES } from '../errors/error-codes.js';

export class ErrorDetailDto {
  /** Path of the offending field (dot notation) */
  @ApiProperty({ example: 'taxMatrix.22021000.ICMS_rate' })
  field: string;

  /** What is wrong with it */
  @ApiProperty({ example: 'must be a number from 0 to 100 with at most 4 decimals' })
  problem: string;

  /** Set on the tax-matrix CSV import's problems: the file's line (1 is the header row); `field` says it in words */
  @ApiProperty({ required: false, type: 'integer', minimum: 1, example: 3 })
  line?: number;

  /** Set on the tax-matrix CSV import's problems about one cell: the name of its column */
  @ApiProperty({ required: false, example: 'ICMS_rate' })
  column?: string;
}

/** The admin API's error body (login, enrichment and admin routes), for the codes without typed details. */
export class ErrorResponseDto {
  /** Human-readable explanation (always one string) */
  @ApiProperty({ example: 'Fiscal group not found' })
  message: string;

  /** Machine-readable code */
  @ApiProperty({ enum: GENERIC_ERROR_CODES, example: 'NOT_FOUND' })
  error: string;

  /** One entry per invalid field (validation errors only) */
  details?: ErrorDetailDto[];
}

/** One item of a domain failure's `details`; each code's subclass adds its typed fields. */
export abstract class DomainErrorDetailDto {
  /** The request field the failure is about (a path parameter by its name) */
  field: string;

  /** The problem in words, for people: programs read the typed fields */
  problem: string;
}

/**
 * The admin API's body of a domain failure: `error` is its own code and every item of `details`
 * carries the typed fields of that code beside `field` and `problem`. Each code extends it.
 */
export abstract class DomainErrorResponseDto {
  /** Human-readable explanation (always one string) */
  message: string;
}

/**
 * The point-of-sale routes' body of a domain failure: `error` and `message` carry the sentence,
 * as in every point-of-sale error (the platform's clients read one or the other); `code` is the
 * failure's own code and every item of `details` carries its typed fields beside `field` and
 * `problem`. Each code extends it with `code` and `details`.
 */
export abstract class PointOfSaleDomainErrorResponseDto {
  /** Human-readable explanation, the same sentence as `message` */
  error: string;

  /** The same sentence as `error` */
  message: string;
}

/** The channel configuration's error body. */
export class ChannelErrorResponseDto {
  /** HTTP status code, as a string */
  @ApiProperty({ example: '400' })
  statusCode: string;

  @ApiProperty({ example: 'Invalid request: stores[0].storeChannels[0]: channel "X" is not in this request' })
  message: string;
}

/** The OAuth routes' error body, `/domain-cliente/*` (OAuth 2.0 error response, RFC 6749 §5.2). */
export class OAuthErrorResponseDto {
  @ApiProperty({ enum: OAUTH_ERROR_CODES, example: 'invalid_client' })
  error: string;

  @ApiProperty({ example: 'Client authentication failed' })
  error_description: string;
}

/**
 * The point-of-sale routes' error body for a failure without a domain code. The platform's
 * clients read `error` or `message`: both carry the sentence.
 */
export class FulfillmentErrorResponseDto {
  @ApiProperty({ example: 'Order 12345 not found' })
  error: string;

  /** The same sentence as `error` */
  @ApiProperty({ example: 'Order 12345 not found' })
  message: string;
}

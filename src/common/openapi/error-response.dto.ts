import { ApiProperty } from '@nestjs/swagger';
import { ERROR_CODES, OAUTH_ERROR_CODES } from '../errors/error-codes.js';

export class ErrorDetailDto {
  /** Path of the offending field (dot notation) */
  @ApiProperty({ example: 'taxMatrix.22021000.ICMS_rate' })
  field: string;

  /** What is wrong with it */
  @ApiProperty({ example: 'must be a number from 0 to 100 with at most 4 decimals' })
  problem: string;
}

/** Error A: login, enrichment and admin routes. */
export class ErrorResponseDto {
  /** Human-readable explanation (always one string) */
  @ApiProperty({ example: 'Fiscal group not found' })
  message: string;

  /** Machine-readable code */
  @ApiProperty({ enum: ERROR_CODES, example: 'NOT_FOUND' })
  error: string;

  /** One entry per invalid field (validation errors only) */
  details?: ErrorDetailDto[];
}

/** Error B: channel configuration. */
export class ChannelErrorResponseDto {
  /** HTTP status code, as a string */
  @ApiProperty({ example: '400' })
  statusCode: string;

  @ApiProperty({ example: 'Invalid request: stores[0].storeChannels[0]: channel "X" is not in this request' })
  message: string;
}

/** Error C: `/domain-cliente/*` (OAuth 2.0 error response, RFC 6749 §5.2). */
export class OAuthErrorResponseDto {
  @ApiProperty({ enum: OAUTH_ERROR_CODES, example: 'invalid_client' })
  error: string;

  @ApiProperty({ example: 'Client authentication failed' })
  error_description: string;
}

/** Error D: order fulfillment. The platform's clients read `error` or `message`: both carry the sentence. */
export class FulfillmentErrorResponseDto {
  @ApiProperty({ example: 'Order 12345 not found' })
  error: string;

  /** The same sentence as `error` */
  @ApiProperty({ example: 'Order 12345 not found' })
  message: string;
}

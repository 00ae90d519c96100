import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ERROR_CODES, OAUTH_ERROR_CODES } from '../errors/error-codes.js';

export class ErrorDetailDto {
  @ApiProperty({ description: 'Path of the offending field (dot notation)', example: 'taxMatrix.22021000.ICMS_rate' })
  field: string;

  @ApiProperty({ description: 'What is wrong with it', example: 'must be a number from 0 to 100 with at most 4 decimals' })
  problem: string;
}

/** Error A: login, enrichment and admin routes. */
export class ErrorResponseDto {
  @ApiProperty({ description: 'Human-readable explanation (always one string)', example: 'Fiscal group not found' })
  message: string;

  @ApiProperty({ description: 'Machine-readable code', enum: ERROR_CODES, example: 'NOT_FOUND' })
  error: string;

  @ApiPropertyOptional({ description: 'One entry per invalid field (validation errors only)', type: [ErrorDetailDto] })
  details?: ErrorDetailDto[];
}

/** Error B: channel configuration. */
export class ChannelErrorResponseDto {
  @ApiProperty({ description: 'HTTP status code, as a string', example: '400' })
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

  @ApiProperty({ description: 'The same sentence as `error`', example: 'Order 12345 not found' })
  message: string;
}

import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import type { ErrorFamily } from '../errors/error-families.js';
import { ChannelErrorResponseDto, ErrorResponseDto, FulfillmentErrorResponseDto, OAuthErrorResponseDto } from './error-response.dto.js';

const DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request (malformed JSON, wrong type, failed validation, unknown property)',
  401: 'Missing, malformed, expired or wrongly signed bearer token, or a deactivated client',
  403: 'The token lacks the required scope',
  404: 'Not found',
  409: 'Conflict with the current state',
  413: 'Request body over the size limit',
  415: 'Content-Type not accepted',
  422: 'Well-formed but cannot be processed',
  429: 'Too many requests; retry after the number of seconds in Retry-After',
  500: 'Unexpected error (logged with the request id)',
  502: 'The webhook receiver did not accept the delivery',
  503: 'Database unavailable or webhook not configured',
};

const EXAMPLES: Record<ErrorFamily, (status: number) => unknown> = {
  A: (status) => ({ message: DESCRIPTIONS[status] ?? 'Error', error: codeForStatus(status) }),
  B: (status) => ({ statusCode: String(status), message: DESCRIPTIONS[status] ?? 'Error' }),
  C: (status) => ({ error: oauthCodeForStatus(status), error_description: DESCRIPTIONS[status] ?? 'Error' }),
  D: (status) => ({ error: DESCRIPTIONS[status] ?? 'Error', message: DESCRIPTIONS[status] ?? 'Error' }),
};

const SCHEMAS = { A: ErrorResponseDto, B: ChannelErrorResponseDto, C: OAuthErrorResponseDto, D: FulfillmentErrorResponseDto };

function codeForStatus(status: number): string {
  const codes: Record<number, string> = {
    400: 'VALIDATION_FAILED',
    401: 'UNAUTHORIZED',
    403: 'FORBIDDEN',
    404: 'NOT_FOUND',
    409: 'CONFLICT',
    413: 'PAYLOAD_TOO_LARGE',
    415: 'UNSUPPORTED_MEDIA_TYPE',
    422: 'FISCAL_GROUP_NOT_FOUND',
    429: 'RATE_LIMITED',
    500: 'INTERNAL_ERROR',
    502: 'WEBHOOK_DELIVERY_FAILED',
    503: 'SERVICE_UNAVAILABLE',
  };
  return codes[status] ?? 'INTERNAL_ERROR';
}

function oauthCodeForStatus(status: number): string {
  const codes: Record<number, string> = {
    400: 'invalid_request',
    401: 'invalid_token',
    403: 'insufficient_scope',
    429: 'too_many_requests',
    503: 'temporarily_unavailable',
  };
  return codes[status] ?? 'server_error';
}

/**
 * Documents error responses in the body shape of the route family. Every route also
 * gets 413, 415 (when it takes a body), 500 and 503, which any request can meet.
 * `examples` replaces the generic Error A example of a status (another code, a real message).
 */
export function ApiErrors(
  family: ErrorFamily,
  statuses: number[],
  descriptions: Partial<Record<number, string>> = {},
  examples: Partial<Record<number, { message: string; error: string }>> = {},
) {
  return applyDecorators(
    ...[...new Set(statuses)].sort().map((status) =>
      ApiResponse({
        status,
        description: descriptions[status] ?? DESCRIPTIONS[status],
        type: SCHEMAS[family],
        example: (family === 'A' ? examples[status] : undefined) ?? EXAMPLES[family](status),
      }),
    ),
  );
}

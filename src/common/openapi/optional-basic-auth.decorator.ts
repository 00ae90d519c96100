import { ApiExtension } from '@nestjs/swagger';

/** The extension the OpenAPI builder turns into `security: [{}, { basic: [] }]` (openapi.ts `declareSecurity`). */
export const BASIC_OPTIONAL = 'x-basic-optional';

/** The route takes client credentials as HTTP Basic or in its body. */
export function ApiOptionalBasicAuth(): MethodDecorator {
  return ApiExtension(BASIC_OPTIONAL, true);
}

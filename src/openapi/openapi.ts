import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { DOMAIN_ERROR_CODES, GENERIC_ERROR_CODES, OAUTH_ERROR_CODES, POINT_OF_SALE_DOMAIN_CODES } from '../common/errors/error-codes.js';
import type { ErrorFamilyRoutes } from '../common/errors/error-families.js';
import { documentResponsesAnyRouteCanMeet } from '../common/openapi/api-errors.decorator.js';
import { OPEN_OBJECT_SCHEMAS } from '../common/openapi/open-object.decorator.js';
import { BASIC_OPTIONAL } from '../common/openapi/optional-basic-auth.decorator.js';
import { listPropertiesInDeclarationOrder, loadDtoMetadata } from './dto-metadata.js';

export const API_VERSION = '1.0.0';

const list = (codes: readonly string[]) => codes.map((code) => `\`${code}\``).join(', ');

const DESCRIPTION = `Receives ordering-platform orders, computes ICMS, PIS and COFINS per line from the store's fiscal group and each product's NCM, stores them, forwards them to the restaurant's systems and runs their fulfillment.

**Authentication.** Get a token with \`POST /api/authentication/login\` (or the OAuth 2.0 endpoint \`POST /api/domain-cliente/token\`) and send it as \`Authorization: Bearer <token>\`. Scopes: \`admin\` (fiscal configuration, order list), \`orders\` (enrichment, fulfillment), \`platform\` (new-order webhook).

**Errors.** Each family of routes has one body shape: the admin API's \`{ message, error, details? }\` (login, enrichment, admin), the channel configuration's \`{ statusCode, message }\`, the OAuth shape \`{ error, error_description }\` (\`/domain-cliente/*\`), and the point of sale's \`{ error, message }\` (order fulfillment; the same sentence in both). The admin API's codes: ${list(GENERIC_ERROR_CODES)}; a domain failure has its own code, and each item of its \`details\` carries typed fields beside \`field\` and \`problem\`, declared per operation: ${list(DOMAIN_ERROR_CODES.filter((code) => !POINT_OF_SALE_DOMAIN_CODES.includes(code)))}. A point-of-sale domain failure keeps the sentence in \`error\` and \`message\` and adds \`code\` and typed \`details\`, declared per operation the same way (told apart by \`code\`): ${list(POINT_OF_SALE_DOMAIN_CODES)}; other point-of-sale error answers carry only the sentence. OAuth error codes: ${list(OAUTH_ERROR_CODES)}.

Every response carries \`x-request-id\` (the caller's, when sent).`;

/**
 * The document of the routes and DTOs of `app`. DTO properties are described by the metadata the
 * Swagger CLI plugin generates from the classes (`npm run openapi:metadata`), completed by their
 * `@ApiProperty` options.
 */
export async function buildOpenApiDocument(app: INestApplication, errorFamilies: ErrorFamilyRoutes): Promise<OpenAPIObject> {
  await loadDtoMetadata();
  const config = new DocumentBuilder()
    .setTitle('Order Tax Enrichment and Fulfillment Service')
    .setDescription(DESCRIPTION)
    .setVersion(API_VERSION)
    .setLicense(
      'Proprietary: all rights reserved (package.json UNLICENSED)',
      'https://docs.npmjs.com/cli/configuring-npm/package-json#license',
    )
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: 'Token from POST /api/authentication/login or /api/domain-cliente/token',
      },
      'bearer',
    )
    .addBasicAuth({ type: 'http', scheme: 'basic', description: 'client_id:client_secret' }, 'basic')
    // Relative: "Try it out" calls the address the document was served from.
    .addServer('/', 'This service')
    .addTag('Authentication', 'Tokens: `POST /api/authentication/login` and the OAuth 2.0 client-credentials endpoint.')
    .addTag('Enrichment', 'Taxes an order (ICMS, PIS, COFINS per line and modifier), stores it, and forwards it to the order webhook.')
    .addTag(
      'Fiscal documents',
      "An order's NF-e/NFC-e items (`det` and `total`) in the layout of NF-e 4.00 with the reform groups, as JSON or XML, ready for the emitter. Scope `orders`.",
    )
    .addTag('Fiscal groups', 'The tax matrix (NCM → TaxRule) applied to the orders of a group of stores. Scope `admin`.')
    .addTag('Product fiscal categories', "Each product's NCM code. Scope `admin`.")
    .addTag(
      'Reports (admin)',
      "The accountant's reports: the tax report of a period (JSON, CSV, XLSX) and the order list as CSV. Scope `admin`.",
    )
    .addTag(
      'NCM table',
      'The NCM codes and descriptions Receita Federal publishes, as loaded from the shipped table: search and lookup. Scope `admin`.',
    )
    .addTag('Orders (admin)', 'Stored orders: the filtered list, the detail with its history and deliveries, redelivery. Scope `admin`.')
    .addTag(
      'Order fulfillment',
      'Tracking, transfers between stores, pickup dispatch, status changes, payments (`/api/api/order/*`, errors in the point-of-sale shape). Scope `orders`.',
    )
    .addTag(
      'Status aliases',
      'The labels point-of-sale systems send for order statuses (for example `Por Asignar` → READY), matched ignoring case, accents and separators. Scope `admin`.',
    )
    .addTag(
      'Statistics (admin)',
      "The admin console's dashboard: orders per hour, forward outcomes, stores missing a fiscal group. Scope `admin`.",
    )
    .addTag(
      'Clients (admin)',
      'API clients: list, create, change (scopes, stores, active) and rotate secrets. A client may be limited to stores. Scope `admin` or role admin.',
    )
    .addTag('Platform webhooks', "The ordering platform's new-order webhook (errors in the OAuth shape). Scope `platform`.")
    .addTag(
      'Stores and channels',
      'The whole store and sales-channel configuration, replaced atomically (errors in the channel-configuration shape).',
    )
    .addTag('Audit log', 'Every change made through the API or the console: who, what, to what, before and after. Role or scope `admin`.')
    .addTag(
      'Personal data',
      "A customer's data in the stored orders: find and copy, erase (the fiscal record stays). Role or scope `admin`; see docs/personal-data.md.",
    )
    .addTag('Operations', 'Health, readiness and Prometheus metrics. Public.')
    .addTag(
      'People',
      'People who sign in to the console: sessions (cookie and CSRF token), one-time password links, and their management (role `admin`).',
    )
    .addTag(
      'Single sign-on',
      'Sign-in to the console through the OpenID Connect provider, when one is configured (browser redirects). Public.',
    )
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controllerKey, methodKey) => `${controllerKey.replace(/Controller$/, '')}_${methodKey}`,
  });
  await listPropertiesInDeclarationOrder(document);
  for (const name of OPEN_OBJECT_SCHEMAS) {
    const schema = document.components?.schemas?.[name] as { additionalProperties?: boolean } | undefined;
    if (schema) schema.additionalProperties = true;
  }
  declareSecurity(document);
  documentResponsesAnyRouteCanMeet(document, errorFamilies);
  return document;
}

export async function setupOpenApi(app: INestApplication, errorFamilies: ErrorFamilyRoutes): Promise<OpenAPIObject> {
  const document = await buildOpenApiDocument(app, errorFamilies);
  SwaggerModule.setup('docs', app, document, {
    useGlobalPrefix: true,
    jsonDocumentUrl: 'docs-json',
    yamlDocumentUrl: 'docs-yaml',
    customSiteTitle: 'Order Tax Service API',
    swaggerOptions: { persistAuthorization: true, displayRequestDuration: true, tagsSorter: 'alpha' },
  });
  return document;
}

/**
 * Every operation states its security: a public route `security: []` (tools otherwise apply a
 * global requirement or flag it), and a route whose HTTP Basic credentials may instead come in
 * the body (`x-basic-optional`) `[{}, { basic: [] }]`, so that generated clients do not send both.
 */
function declareSecurity(document: OpenAPIObject): void {
  for (const path of Object.values(document.paths)) {
    for (const operation of Object.values(path) as Array<Record<string, unknown>>) {
      if (typeof operation !== 'object' || operation === null || !('responses' in operation)) continue;
      if (operation[BASIC_OPTIONAL] === true) {
        operation.security = [{}, { basic: [] }];
        delete operation[BASIC_OPTIONAL];
      } else if (operation.security === undefined) operation.security = [];
    }
  }
}

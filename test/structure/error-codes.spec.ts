import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DOMAIN_ERROR_CODES,
  ERROR_CODES,
  GENERIC_ERROR_CODES,
  POINT_OF_SALE_DOMAIN_CODES,
  STATUS_BY_CODE,
} from '../../src/common/errors/error-codes.js';
import { loadCommittedOpenApi } from '../support/openapi-routes.js';

function sourceFiles(dir = 'src'): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') && entry.name !== 'plugin-metadata.ts' ? [path] : [];
  });
}

/** Every code the sources name: `ErrorCode.X`, `DomainErrorCode.X`, and codes written as text to an ApiError. */
function codesUsedInSources(): Set<string> {
  const used = new Set<string>();
  for (const file of sourceFiles()) {
    if (file.endsWith(join('errors', 'error-codes.ts'))) continue;
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/\b(?:Domain)?ErrorCode\.([A-Z_]+)\b/g)) used.add(match[1]!);
    for (const match of text.matchAll(/new ApiError\(\s*'([A-Z_]+)'/g)) used.add(match[1]!);
  }
  return used;
}

/**
 * The codes the operations' responses of the document declare, by code: where (operation and
 * status) and in which property of the body (`error` on the admin API, `code` on the
 * point-of-sale routes, whose `error` is the sentence).
 */
function codesDeclaredByOperations(): Map<string, { where: string; property: string }[]> {
  const document = loadCommittedOpenApi();
  const schemaOf = (ref: string) => document.components.schemas[ref.replace('#/components/schemas/', '')];
  const declared = new Map<string, { where: string; property: string }[]>();
  for (const [template, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        const schema = response.content?.['application/json']?.schema;
        const refs = (schema?.oneOf ?? (schema ? [schema] : [])).flatMap((each) => (each.$ref ? [each.$ref] : []));
        for (const ref of refs) {
          for (const property of ['error', 'code']) {
            for (const code of schemaOf(ref)?.properties?.[property]?.enum ?? []) {
              if (typeof code !== 'string') throw new Error(`${ref}.${property}: a code that is not text`);
              const where = `${method.toUpperCase()} ${template} ${status}`;
              declared.set(code, [...(declared.get(code) ?? []), { where, property }]);
            }
          }
        }
      }
    }
  }
  return declared;
}

describe('error codes and the OpenAPI document', () => {
  const declared = codesDeclaredByOperations();

  it('every code the sources use is a known code', () => {
    expect([...codesUsedInSources()].filter((code) => !(ERROR_CODES as readonly string[]).includes(code))).toEqual([]);
  });

  it('every domain code is thrown somewhere', () => {
    const used = codesUsedInSources();
    expect(DOMAIN_ERROR_CODES.filter((code) => !used.has(code))).toEqual([]);
  });

  it('every code an error body can carry is declared by the responses of the operations', () => {
    expect([...GENERIC_ERROR_CODES, ...DOMAIN_ERROR_CODES].filter((code) => !declared.has(code))).toEqual([]);
  });

  it('each domain code is declared only with its own schema, on responses of its own status', () => {
    for (const code of DOMAIN_ERROR_CODES) {
      expect([code, (declared.get(code) ?? []).filter(({ where }) => !where.endsWith(` ${STATUS_BY_CODE[code]}`))]).toEqual([code, []]);
    }
  });

  it('the point-of-sale codes are declared in `code`, on point-of-sale operations only; the others in `error`', () => {
    for (const code of DOMAIN_ERROR_CODES) {
      const pointOfSale = POINT_OF_SALE_DOMAIN_CODES.includes(code);
      const misplaced = (declared.get(code) ?? []).filter(
        ({ where, property }) => property !== (pointOfSale ? 'code' : 'error') || where.includes(' /api/api/order/') !== pointOfSale,
      );
      expect([code, misplaced]).toEqual([code, []]);
    }
  });

  it('the document names the point-of-sale codes where it describes that body', () => {
    const description = loadCommittedOpenApi().info.description ?? '';
    for (const code of POINT_OF_SALE_DOMAIN_CODES) expect([code, description.includes(`\`${code}\``)]).toEqual([code, true]);
  });
});

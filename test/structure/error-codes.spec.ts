import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DOMAIN_ERROR_CODES, ERROR_CODES, GENERIC_ERROR_CODES, LOGGED_ONLY_CODES } from '../../src/common/errors/error-codes.js';
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

/** The admin API codes the operations' responses of the document declare, by code: the operations. */
function codesDeclaredByOperations(): Map<string, string[]> {
  const document = loadCommittedOpenApi();
  const schemaOf = (ref: string) => document.components.schemas[ref.replace('#/components/schemas/', '')];
  const declared = new Map<string, string[]>();
  for (const [template, methods] of Object.entries<Record<string, any>>(document.paths)) {
    for (const [method, operation] of Object.entries<Record<string, any>>(methods)) {
      for (const [status, response] of Object.entries<Record<string, any>>(operation.responses)) {
        const schema = response.content?.['application/json']?.schema;
        const refs: string[] = schema?.oneOf ? schema.oneOf.map((each: { $ref: string }) => each.$ref) : schema?.$ref ? [schema.$ref] : [];
        for (const ref of refs) {
          for (const code of schemaOf(ref)?.properties?.error?.enum ?? []) {
            declared.set(code, [...(declared.get(code) ?? []), `${method.toUpperCase()} ${template} ${status}`]);
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

  it('every code an admin API body can carry is declared by the responses of the operations', () => {
    const readable = [...GENERIC_ERROR_CODES, ...DOMAIN_ERROR_CODES.filter((code) => !LOGGED_ONLY_CODES.includes(code))];
    expect(readable.filter((code) => !declared.has(code))).toEqual([]);
  });

  it('each domain code is declared only with its own schema, on 409 responses', () => {
    for (const code of DOMAIN_ERROR_CODES.filter((each) => !LOGGED_ONLY_CODES.includes(each))) {
      expect([code, (declared.get(code) ?? []).filter((where) => !where.endsWith(' 409'))]).toEqual([code, []]);
    }
  });

  it('the codes only logged are named in the document, which says why they are not in the body', () => {
    const description: string = loadCommittedOpenApi().info.description;
    for (const code of LOGGED_ONLY_CODES) expect([code, description.includes(`\`${code}\``)]).toEqual([code, true]);
    expect(LOGGED_ONLY_CODES.filter((code) => declared.has(code))).toEqual([]);
  });
});

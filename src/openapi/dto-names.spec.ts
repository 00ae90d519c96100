import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('..', import.meta.url));

function sources(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') && !path.endsWith('.spec.ts') ? [path] : [];
  });
}

describe('OpenAPI schema names', () => {
  it('are unique: Swagger names a schema after its class, so two classes of one name overwrite each other', () => {
    const seen = new Map<string, string>();
    const clashes: string[] = [];
    for (const file of sources(SRC)) {
      for (const [, name] of readFileSync(file, 'utf8').matchAll(/export class (\w+Dto)\b/g)) {
        if (seen.has(name!)) clashes.push(`${name} in ${seen.get(name!)} and ${file}`);
        else seen.set(name!, file);
      }
    }
    expect(seen.size).toBeGreaterThan(20);
    expect(clashes).toEqual([]);
  });
});

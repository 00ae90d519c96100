import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { REGISTERED_PROFILES } from '../../src/enrichment/marketplaces/registered-profiles.js';

/**
 * A marketplace profile is one module: a folder of `src/enrichment/` holding its `*-profile.ts` (the
 * MarketplaceProfile: mapper, OpenAPI example, personal-data fields) and its tests. Adding one touches no other
 * module: only the registry's list names it, no other code imports it, and nothing outside it branches on a
 * profile's name (docs/adding-a-marketplace.md).
 */

const REGISTRY = 'src/enrichment/marketplaces/registered-profiles.ts';
/** What the profiles share (the interface, the reading kit): not a profile. The registry is in marketplaces/. */
const SHARED = 'src/enrichment/profiles/';

function sourceFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', 'src'], { encoding: 'utf8' })
    .split('\0')
    .filter((file) => file.endsWith('.ts'));
}

const files = sourceFiles();
const profileFolders = [...new Set(files.filter((file) => file.endsWith('-profile.ts')).map((file) => `${dirname(file)}/`))].filter(
  (folder) => folder !== SHARED,
);
const isSpec = (file: string) => file.endsWith('.spec.ts');

/** The relative imports of a file, resolved to paths under src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/from '(\.{1,2}\/[^']+)'/g)].map((match) => {
    const parts = `${dirname(file)}/${match[1]!}`.split('/');
    const resolved: string[] = [];
    for (const part of parts) {
      if (part === '..') resolved.pop();
      else if (part !== '.') resolved.push(part);
    }
    return resolved.join('/');
  });
}

describe('marketplace profiles are modules of their own', () => {
  it('finds a folder for every registered profile', () => {
    expect(profileFolders.length).toBeGreaterThanOrEqual(4);
    expect(REGISTERED_PROFILES.map((profile) => profile.name)).toEqual(
      expect.arrayContaining(['ifood', 'rappi', '99food', 'opendelivery', 'keeta']),
    );
  });

  it('no code outside a profile imports it, except the registry', () => {
    const found = files
      .filter((file) => !isSpec(file) && file !== REGISTRY)
      .flatMap((file) =>
        importsOf(file)
          .filter((target) => profileFolders.some((folder) => target.startsWith(folder) && !file.startsWith(folder)))
          .map((target) => `${file} imports ${target}`),
      );
    expect(found).toEqual([]);
  });

  it("a profile imports no other profile's code", () => {
    const found = files
      .filter((file) => !isSpec(file))
      .flatMap((file) => {
        const own = profileFolders.find((folder) => file.startsWith(folder));
        if (own === undefined) return [];
        return importsOf(file)
          .filter((target) => profileFolders.some((folder) => folder !== own && target.startsWith(folder)))
          .map((target) => `${file} imports ${target}`);
      });
    expect(found).toEqual([]);
  });

  it("nothing outside the profiles branches on a profile's name", () => {
    const names = REGISTERED_PROFILES.map((profile) => profile.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
    const comparison = new RegExp(`[!=]==?\\s*['"\`](${names})['"\`]|['"\`](${names})['"\`]\\s*[!=]==?|case\\s+['"\`](${names})['"\`]`);
    const found = files
      .filter((file) => !isSpec(file) && !profileFolders.some((folder) => file.startsWith(folder)))
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .flatMap((line, index) => (comparison.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
      );
    expect(found).toEqual([]);
  });

  it.each(profileFolders)('%s exports its personal-data fields and has its own tests', (folder) => {
    const inFolder = files.filter((file) => file.startsWith(folder) && dirname(file) === folder.slice(0, -1));
    const profileFiles = inFolder.filter((file) => file.endsWith('-profile.ts'));
    for (const file of profileFiles) expect(readFileSync(file, 'utf8')).toMatch(/export const personalDataFields: readonly string\[\]/);
    expect(inFolder.some(isSpec)).toBe(true);
  });

  it('each registered profile has a complete example and dotted personal-data paths', () => {
    for (const profile of REGISTERED_PROFILES) {
      expect(Object.keys(profile.example).length).toBeGreaterThan(2);
      expect(profile.personalDataFields.length).toBeGreaterThan(0);
      for (const path of profile.personalDataFields) expect(path).toMatch(/^[A-Za-z_][\w]*(\.([A-Za-z_]\w*|\*))*$/);
    }
  });
});

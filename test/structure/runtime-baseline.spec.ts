import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { PROJECT_ROOT as root } from '../support/service-process.js';

/**
 * `npm ci` on the supported Node prints no EBADENGINE and no install-script warning: every locked
 * package's `engines.node` admits the oldest Node of our `engines`, and every package with an install
 * script is approved or refused by name in `allowScripts`, never left for npm to ask about.
 */
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  engines: { node: string };
  allowScripts: Record<string, boolean>;
};
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { engines?: { node?: string } | string[]; hasInstallScript?: boolean; optional?: boolean }>;
};

function packageName(path: string): string {
  return path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
}

describe('the runtime baseline', () => {
  const floor = semver.minVersion(manifest.engines.node)!;

  it('is Node 22 LTS or newer', () => {
    expect(semver.major(floor)).toBeGreaterThanOrEqual(22);
  });

  it("admits the floor in every locked package's engines (no EBADENGINE on npm ci)", () => {
    const refusing = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== '' && entry.engines && !Array.isArray(entry.engines) && entry.engines.node)
      .filter(([, entry]) => !semver.satisfies(floor, (entry.engines as { node: string }).node, { includePrerelease: true }))
      .map(([path, entry]) => `${packageName(path)} wants node ${(entry.engines as { node: string }).node}`);
    expect(refusing).toEqual([]);
  });

  it('names every package with an install script in allowScripts', () => {
    const unnamed = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== '' && entry.hasInstallScript)
      .map(([path]) => packageName(path))
      .filter((name) => !(name in manifest.allowScripts));
    expect(unnamed).toEqual([]);
  });
});

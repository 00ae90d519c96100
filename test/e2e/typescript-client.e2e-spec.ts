import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../support/service-process.js';

const execFileAsync = promisify(execFile);

describe('TypeScript client', () => {
  it('is generated from the committed openapi.json (run `npm run client:generate` after an API change)', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'client-'));
    try {
      const output = join(directory, 'schema.d.ts');
      // The committed client's own command (its options included), writing to a scratch file instead.
      const scripts = (JSON.parse(await readFile(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
        .scripts;
      const [command, ...args] = scripts['client:generate']!.split(' ');
      expect(command).toBe('openapi-typescript');
      args[args.indexOf('-o') + 1] = output;
      await execFileAsync(join(PROJECT_ROOT, 'node_modules/.bin/openapi-typescript'), args, { cwd: PROJECT_ROOT });
      const committed = await readFile(join(PROJECT_ROOT, 'clients/typescript/src/schema.d.ts'), 'utf8');
      expect(await readFile(output, 'utf8')).toBe(committed);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});

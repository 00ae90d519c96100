import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../support/service-process.js';

const execFileAsync = promisify(execFile);

describe('Swagger plugin metadata', () => {
  it('is generated from the current DTO classes (run `npm run openapi:metadata` after a DTO change)', async () => {
    const check = execFileAsync(process.execPath, [join(PROJECT_ROOT, 'scripts/openapi-metadata.mjs'), '--check'], { cwd: PROJECT_ROOT });
    await expect(check).resolves.toMatchObject({ stderr: '' });
  }, 120_000);
});

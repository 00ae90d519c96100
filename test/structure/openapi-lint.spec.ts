import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { PROJECT_ROOT as root } from '../support/service-process.js';

/**
 * `openapi.json` lints clean under Redocly's recommended rules, none turned off: an occurrence a rule
 * cannot apply to is listed by itself in `.redocly.lint-ignore.yaml` with its reason, so that the rule
 * still catches every other path (a new ambiguous path, an operation without a 4xx...).
 */
describe("the OpenAPI document under Redocly's recommended rules", () => {
  it('uses the recommended rules and turns none of them off or down', () => {
    const config = parse(readFileSync(join(root, 'redocly.yaml'), 'utf8')) as { extends?: string[]; rules?: Record<string, unknown> };
    expect(config.extends).toEqual(['recommended']);
    expect(config.rules ?? {}).toEqual({});
  });

  it('has no problem left but the occurrences listed with their reasons', async () => {
    const { stdout } = await promisify(execFile)(join(root, 'node_modules/.bin/redocly'), ['lint', 'openapi.json', '--format=json'], {
      cwd: root,
      maxBuffer: 64 * 1024 * 1024,
    });
    const report = JSON.parse(stdout) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; message: string }[] };
    expect(report.problems.map((problem) => `${problem.ruleId}: ${problem.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);
});

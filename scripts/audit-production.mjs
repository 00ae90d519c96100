// `npm audit` of the production dependencies: fails on any high or critical advisory.
// When the registry offers no audit endpoint (some mirrors answer 405), it says so loudly
// and does not fail: a missing service is not a vulnerability, but it is not a pass either.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** What to do with `npm audit --json`'s output: the exit code and the line to print. */
export function auditVerdict(stdout, stderr) {
  let report;
  try {
    report = JSON.parse(stdout);
  } catch {
    report = undefined;
  }
  if (!report || report.error || /audit endpoint returned an error|ENOTFOUND|ECONNREFUSED|405/.test(stderr)) {
    return { code: 0, message: 'npm audit: the registry audit endpoint is unavailable here; production dependencies were NOT audited.' };
  }
  const counts = report.metadata?.vulnerabilities ?? {};
  const serious = (counts.high ?? 0) + (counts.critical ?? 0);
  if (serious > 0)
    return { code: 1, message: `npm audit: ${serious} high or critical advisories in production dependencies ${JSON.stringify(counts)}` };
  return { code: 0, message: `npm audit (production): ${JSON.stringify(counts)}` };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const run = spawnSync('npm', ['audit', '--omit=dev', '--json'], { encoding: 'utf8' });
  const verdict = auditVerdict(run.stdout, run.stderr);
  (verdict.code === 0 ? console.log : console.error)(verdict.message);
  process.exit(verdict.code);
}

#!/usr/bin/env node
/**
 * npm run check:newman (run by .ci/run): what an integrator gets from Postman.
 *
 * Converts the committed openapi.json into a Postman collection with openapi-to-postmanv2,
 * as Postman's importer does, takes three of its requests (the token request, the order list,
 * the enrichment of the documented demo order) and runs them with newman against the built
 * service on a fresh embedded database with the demo data. Fails when any answer is not 200.
 * Needs `npm run build` first.
 *
 * `convertV2` is the conversion Postman's importer runs; with `parametersResolution: Example`
 * the bodies are the operations' documented examples. The requests keep the converter's
 * method, URL, headers, auth and body; only what an integrator changes by hand is changed:
 * optional query parameters left as `<string>` placeholders are unticked (a form body left
 * with placeholders gets the values of the operation's documented example).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import newman from 'newman';
import Converter from 'openapi-to-postmanv2';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const STEPS = [
  {
    method: 'POST',
    path: '/api/domain-cliente/token',
    test: "pm.collectionVariables.set('bearerToken', pm.response.json().access_token);",
  },
  { method: 'GET', path: '/api/admin/orders', test: '' },
  { method: 'POST', path: '/api/enrich-order', test: 'pm.expect(pm.response.json().payload.taxSummary.totals.total_tax).to.be.above(0);' },
];

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

async function startService(directory) {
  const port = await freePort();
  const child = spawn(process.execPath, ['dist/src/main.js'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      EMBEDDED_DB_DIR: join(directory, 'postgres'),
      SEED_DEMO_DATA: 'true',
      JWT_SECRET: `newman-${Math.random().toString(36).slice(2)}-${Date.now()}-check-secret`,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
    const ready = await fetch(`${base}/api/health/ready`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return { base, child };
    if (Date.now() > deadline) throw new Error('the service did not become ready in 90 s');
    await new Promise((done) => setTimeout(done, 250));
  }
}

/** Every request of a converted collection, with its folder path flattened. */
function requestsOf(items) {
  return items.flatMap((item) => (item.item ? requestsOf(item.item) : [item]));
}

function pathOf(item) {
  const url = item.request.url;
  return `/${(url.path ?? []).join('/')}`.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

const PLACEHOLDER = /^<[a-z-]+>$/i;

function fillPlaceholders(request, operation) {
  for (const parameter of request.url.query ?? []) if (PLACEHOLDER.test(parameter.value ?? '')) parameter.disabled = true;
  if (request.body?.mode !== 'urlencoded') return;
  const content = operation.requestBody?.content ?? {};
  const examples = Object.values(content).flatMap((media) => Object.values(media.examples ?? {}).map((example) => example.value));
  const example = examples[0] ?? {};
  request.body.urlencoded = request.body.urlencoded
    .map((field) =>
      PLACEHOLDER.test(field.value)
        ? { ...field, value: example[field.key] === undefined ? undefined : String(example[field.key]) }
        : field,
    )
    .filter((field) => field.value !== undefined);
}

async function main() {
  const spec = await readFile(join(ROOT, 'openapi.json'), 'utf8');
  const converted = await promisify(Converter.convertV2)(
    { type: 'string', data: spec },
    { parametersResolution: 'Example', folderStrategy: 'Paths' },
  );
  if (!converted.result) throw new Error(`openapi-to-postmanv2 could not convert openapi.json: ${converted.reason}`);
  const collection = converted.output[0].data;
  const document = JSON.parse(spec);
  const requests = requestsOf(collection.item);
  const items = STEPS.map((step) => {
    const item = requests.find((candidate) => candidate.request.method === step.method && pathOf(candidate) === step.path);
    if (!item) throw new Error(`the converted collection has no ${step.method} ${step.path}`);
    fillPlaceholders(item.request, document.paths[step.path][step.method.toLowerCase()]);
    const exec = ['pm.test(pm.info.requestName + " answers 200", () => pm.response.to.have.status(200));', step.test].filter(Boolean);
    return { ...item, event: [...(item.event ?? []), { listen: 'test', script: { type: 'text/javascript', exec } }] };
  });

  const directory = await mkdtemp(join(tmpdir(), 'newman-check-'));
  const service = await startService(directory);
  try {
    const summary = await promisify(newman.run)({
      collection: { ...collection, item: items },
      envVar: [{ key: 'baseUrl', value: service.base }],
      reporters: ['cli'],
    });
    const failures = summary.run.failures.length;
    process.stdout.write(`newman: ${items.length} requests of the converted collection, ${failures} failure(s)\n`);
    if (failures > 0) process.exitCode = 1;
  } finally {
    service.child.kill('SIGTERM');
    await new Promise((done) => service.child.once('exit', done));
    await rm(directory, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});

#!/usr/bin/env node
// The admin console's initial bundle, gzipped: what a browser downloads before the first page
// shows (index.html, its entry script, the chunks it preloads and its stylesheets). Lazy page
// chunks are listed apart. Fails above the budget (budget: 300 KB gzip). Run after `npm run build`.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_BYTES = 300_000;
const root = new URL('../dist/console/', import.meta.url).pathname;
let html;
try {
  html = readFileSync(join(root, 'index.html'), 'utf8');
} catch {
  console.error('dist/console/index.html is missing: run `npm run build` first');
  process.exit(1);
}

const referenced = [...html.matchAll(/(?:src|href)="\/console\/(assets\/[^"]+)"/g)].map((match) => match[1]);
const gzipped = (file) => gzipSync(readFileSync(join(root, file)), { level: 9 }).length;
const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;

const initial = [{ file: 'index.html', bytes: gzipped('index.html') }, ...referenced.map((file) => ({ file, bytes: gzipped(file) }))];
const total = initial.reduce((sum, entry) => sum + entry.bytes, 0);
console.log('console initial bundle (gzip -9):');
for (const entry of initial) console.log(`  ${entry.file.padEnd(48)} ${kb(entry.bytes).padStart(10)}`);
console.log(`  ${'total'.padEnd(48)} ${kb(total).padStart(10)}  (budget ${kb(BUDGET_BYTES)})`);

const lazy = readdirSync(join(root, 'assets'))
  .map((name) => `assets/${name}`)
  .filter((file) => !referenced.includes(file) && statSync(join(root, file)).isFile() && /\.(js|css)$/.test(file));
const lazyTotal = lazy.reduce((sum, file) => sum + gzipped(file), 0);
console.log(`lazy chunks (loaded with their page): ${lazy.length} files, ${kb(lazyTotal)}`);

if (total > BUDGET_BYTES) {
  console.error(`the console's initial bundle is ${kb(total)}, over the ${kb(BUDGET_BYTES)} budget`);
  process.exit(1);
}

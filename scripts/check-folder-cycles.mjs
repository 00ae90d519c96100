// No cycles between the top-level folders of src/ (dependency-cruiser's folder rules look at every
// nested folder on its own, so orders/dto → enrichment/dto plus enrichment → orders slips through).
// Runs dependency-cruiser collapsed to src/<folder>/ and fails on any cycle in that graph.
import { cruise } from 'dependency-cruiser';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const config = require('../.dependency-cruiser.cjs');
const result = await cruise(['src'], { ...config.options, collapse: '^src/[^/]+/', validate: false }, undefined, {
  tsConfig: require('../tsconfig.json'),
});
const folderOf = (path) => (/^src\/[^/]+\/$/.test(path) ? path : undefined);
const edges = new Map();
for (const module of result.output.modules) {
  const from = folderOf(module.source);
  if (!from) continue;
  const targets = edges.get(from) ?? new Set();
  for (const dependency of module.dependencies) {
    const to = folderOf(dependency.resolved);
    if (to && to !== from) targets.add(to);
  }
  edges.set(from, targets);
}

const cycles = [];
const state = new Map(); // 1 on the current path, 2 done
const path = [];
function visit(folder) {
  state.set(folder, 1);
  path.push(folder);
  for (const next of edges.get(folder) ?? []) {
    if (state.get(next) === 1) cycles.push([...path.slice(path.indexOf(next)), next].join(' → '));
    else if (!state.has(next)) visit(next);
  }
  path.pop();
  state.set(folder, 2);
}
for (const folder of [...edges.keys()].sort()) if (!state.has(folder)) visit(folder);

if (cycles.length > 0) {
  console.error(`Import cycles between src/ folders (one of each pair must own the shared piece):\n  ${cycles.join('\n  ')}`);
  process.exit(1);
}
console.log(`✔ no import cycles between the ${edges.size} folders of src/`);

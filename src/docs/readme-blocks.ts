import { CONFIG_VARIABLES } from '../config/config-variables.js';
import { BUILT_IN_PERSONAL_DATA_FIELD_LISTS } from '../personal-data/personal-data-fields.js';
import { REGISTERED_PROFILES } from '../enrichment/marketplaces/registered-profiles.js';

/**
 * Parts of the README generated from the code, so that the README cannot drift:
 * the configuration table (from the config module), the personal fields of each intake shape and the curl tour (the script a
 * test runs). `npm run docs:readme` rewrites them; a test fails when they differ.
 */

export function renderConfigTable(): string {
  const rows = CONFIG_VARIABLES.map((variable) => {
    const fallback = variable.defaultLabel ?? (variable.default === undefined ? 'unset' : `\`${variable.default}\``);
    const secret = variable.sensitive ? ' Secret: never logged.' : '';
    return `| \`${variable.name}\` | ${fallback} | ${variable.description}${secret} |`;
  });
  return ['| variable | default | meaning |', '|---|---|---|', ...rows].join('\n');
}

/** The personal fields of each intake shape: the built-in ones (`src/personal-data/personal-data-fields.ts`) and each marketplace profile's. */
export function renderPersonalDataFields(): string {
  const lists = [
    ...BUILT_IN_PERSONAL_DATA_FIELD_LISTS,
    ...REGISTERED_PROFILES.map((profile) => ({ shape: profile.name, fields: profile.personalDataFields })),
  ];
  const rows = lists.map(({ shape, fields }) => `| \`${shape}\` | ${fields.map((field) => `\`${field}\``).join(', ')} |`);
  return ['| intake shape | personal fields (`*`: any array index or key) |', '|---|---|', ...rows].join('\n');
}

export function renderWalkthrough(script: string): string {
  const body = script
    .split('\n')
    .filter((line) => !line.startsWith('#!'))
    .join('\n')
    .trim();
  return ['```bash', body, '```'].join('\n');
}

const START = (name: string) => new RegExp(`<!-- ${name}:start[^>]*-->`);
const END = (name: string) => `<!-- ${name}:end -->`;

export function replaceBlock(readme: string, name: string, content: string): string {
  const start = START(name).exec(readme);
  const end = readme.indexOf(END(name));
  if (!start || end < start.index) throw new Error(`README has no ${name} block markers`);
  const open = start.index + start[0].length;
  return `${readme.slice(0, open)}\n${content}\n${readme.slice(end)}`;
}

export function renderReadme(readme: string, walkthroughScript: string): string {
  const blocks = replaceBlock(readme, 'config-table', renderConfigTable());
  return replaceBlock(
    replaceBlock(blocks, 'walkthrough', renderWalkthrough(walkthroughScript)),
    'personal-data-fields',
    renderPersonalDataFields(),
  );
}

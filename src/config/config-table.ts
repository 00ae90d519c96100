import { CONFIG_VARIABLES } from './app-config.js';

export const CONFIG_TABLE_START = '<!-- config-table:start (generated from src/config/app-config.ts: npm run docs:config) -->';
export const CONFIG_TABLE_END = '<!-- config-table:end -->';

/** The README's configuration table, generated from the one place variables are declared. */
export function renderConfigTable(): string {
  const rows = CONFIG_VARIABLES.map((variable) => {
    const fallback = variable.defaultLabel ?? (variable.default === undefined ? 'unset' : `\`${variable.default}\``);
    const secret = variable.sensitive ? ' Secret: never logged.' : '';
    return `| \`${variable.name}\` | ${fallback} | ${variable.description}${secret} |`;
  });
  return ['| variable | default | meaning |', '|---|---|---|', ...rows].join('\n');
}

export function replaceConfigTable(readme: string): string {
  const start = readme.indexOf(CONFIG_TABLE_START);
  const end = readme.indexOf(CONFIG_TABLE_END);
  if (start < 0 || end < start) throw new Error('README has no configuration table markers');
  return `${readme.slice(0, start + CONFIG_TABLE_START.length)}\n${renderConfigTable()}\n${readme.slice(end)}`;
}

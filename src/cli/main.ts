#!/usr/bin/env node
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { ApiClientsService } from '../auth/api-clients.service.js';
import { commandLineContext } from '../audit/command-line-context.js';
import { ApiClientsAdminService } from '../clients/api-clients-admin.service.js';
import type { ClassConstructor } from 'class-transformer';
import { CreateClientDto, UpdateClientDto } from '../clients/dto/client.dto.js';
import { isScope, SCOPES, type Scope } from '../auth/scopes.js';
import { MAX_GRACE_SECONDS } from '../clients/dto/client.dto.js';
import { ConfigValidationError } from '../config/app-config.js';
import { DatabaseUnreachableError, EXIT_DATABASE_UNREACHABLE } from '../database/database-preflight.js';
import { ApiError } from '../common/errors/api-error.js';
import { FiscalGroupsService } from '../fiscal-groups/fiscal-groups.service.js';
import { csvProblemCount, csvToTaxMatrix } from '../fiscal-groups/tax-matrix-csv.js';
import { validateDto } from '../common/http/dto-validation.pipe.js';
import { isUuid } from '../common/http/uuid.pipe.js';
import { isRole, ROLES } from '../auth/principal.js';
import { CreateUserDto } from '../users/dto/user.dto.js';
import { UsersService } from '../users/users.service.js';
import { openCliContext, type CliContext } from './cli-context.js';
import { progressReporter } from './progress.js';

type Values = Record<string, string | boolean | undefined>;

interface Command {
  usage: string;
  description: string;
  options: Record<string, { type: 'string' | 'boolean' }>;
  /** Checks the arguments before any database is opened, and returns the work to do. */
  prepare(values: Values, positionals: string[]): Work | Promise<Work>;
}

type Work = (context: CliContext) => Promise<void>;

class UsageError extends Error {}

const COMMANDS: Record<string, Command> = {
  'clients:create': {
    usage: 'clients:create --name NAME --scopes admin,orders,platform [--stores 162,163] [--id NUMBER]',
    description: 'Creates an API client and prints its secret once. --stores limits it to those stores (not with admin).',
    options: {
      name: { type: 'string' },
      scopes: { type: 'string' },
      stores: { type: 'string' },
      id: { type: 'string' },
    },
    async prepare(values) {
      const name = String(values.name ?? '').trim();
      if (!name) throw new UsageError('--name is required');
      const scopes = scopesOption(values);
      if (!scopes) throw new UsageError(`--scopes must list some of ${SCOPES.join(', ')}`);
      const stores = storesOption(values) ?? [];
      if (stores.length > 0 && scopes.includes('admin')) throw new UsageError('a client limited to --stores cannot hold the scope admin');
      const id = values.id === undefined ? undefined : String(values.id);
      if (id !== undefined && !/^\d{1,20}$/.test(id)) throw new UsageError('--id must be a number');
      await asTheApiChecks(CreateClientDto, { name, scopes, stores });
      return async ({ app }) => {
        const created = await app.get(ApiClientsAdminService).create({ name, scopes, stores, clientId: id }, commandLineContext());
        process.stdout.write(
          [
            `client_id:     ${created.clientId}`,
            `client_secret: ${created.secret}`,
            `scopes:        ${created.scopes.join(',')}`,
            `stores:        ${describeStores(created.stores)}`,
            '',
            'The secret is shown only this once: store it now.',
            '',
          ].join('\n'),
        );
      };
    },
  },
  'clients:list': {
    usage: 'clients:list',
    description: 'Lists API clients (never their secrets): id, active, scopes, stores, name.',
    options: {},
    prepare:
      () =>
      async ({ app }) => {
        for (const client of await app.get(ApiClientsService).list()) {
          process.stdout.write(
            `${client.clientId}\t${client.active ? 'active' : 'inactive'}\t${client.scopes.join(',')}\t${describeStores(client.stores)}\t${client.name}\n`,
          );
        }
      },
  },
  'clients:update': {
    usage: 'clients:update --id NUMBER [--name NAME] [--scopes orders,platform] [--stores 162,163 | --all-stores]',
    description: 'Changes a client; running instances apply it within AUTH_CACHE_SECONDS.',
    options: {
      id: { type: 'string' },
      name: { type: 'string' },
      scopes: { type: 'string' },
      stores: { type: 'string' },
      'all-stores': { type: 'boolean' },
    },
    async prepare(values) {
      const id = clientIdOption(values);
      const name = values.name === undefined ? undefined : String(values.name).trim();
      if (name === '') throw new UsageError('--name must not be empty');
      const scopes = values.scopes === undefined ? undefined : scopesOption(values);
      if (scopes === null) throw new UsageError(`--scopes must list some of ${SCOPES.join(', ')}`);
      if (values.stores !== undefined && values['all-stores']) throw new UsageError('give --stores or --all-stores, not both');
      const stores = values['all-stores'] ? [] : storesOption(values);
      if (name === undefined && scopes === undefined && stores === undefined) throw new UsageError('nothing to change');
      await asTheApiChecks(UpdateClientDto, { name, scopes, stores });
      return async ({ app }) => {
        const client = await changedClient(app.get(ApiClientsAdminService), id, { name, scopes, stores });
        process.stdout.write(
          `client ${id}: scopes ${client.scopes.join(',')}, stores ${describeStores(client.stores)}, name ${client.name}\n`,
        );
      };
    },
  },
  'clients:rotate-secret': {
    usage: 'clients:rotate-secret --id NUMBER [--grace-seconds N]',
    description: `Gives a client a new secret and prints it once; the old one keeps working N seconds (0 to ${MAX_GRACE_SECONDS}, default 0: it stops at once).`,
    options: { id: { type: 'string' }, 'grace-seconds': { type: 'string' } },
    prepare(values) {
      const id = clientIdOption(values);
      const graceText = String(values['grace-seconds'] ?? '0');
      const graceSeconds = Number(graceText);
      if (!/^\d+$/.test(graceText) || graceSeconds > MAX_GRACE_SECONDS) {
        throw new UsageError(`--grace-seconds must be a whole number from 0 to ${MAX_GRACE_SECONDS}`);
      }
      return async ({ app }) => {
        const rotated = await orNoClient(id, app.get(ApiClientsAdminService).rotateSecret(id, graceSeconds, commandLineContext()));
        const until = rotated.previousSecretValidUntil;
        process.stdout.write(
          [
            `client_id:     ${rotated.clientId}`,
            `client_secret: ${rotated.secret}`,
            until ? `The previous secret works until ${until}.` : 'The previous secret no longer works.',
            '',
            'The secret is shown only this once: store it now.',
            '',
          ].join('\n'),
        );
      };
    },
  },
  'clients:deactivate': {
    usage: 'clients:deactivate --id NUMBER',
    description: 'Deactivates a client: its tokens stop working within seconds.',
    options: { id: { type: 'string' } },
    prepare: (values) => {
      const id = clientIdOption(values);
      return async ({ app }) => {
        await changedClient(app.get(ApiClientsAdminService), id, { active: false });
        process.stdout.write(`client ${id} deactivated\n`);
      };
    },
  },
  'clients:activate': {
    usage: 'clients:activate --id NUMBER',
    description: 'Reactivates a client.',
    options: { id: { type: 'string' } },
    prepare: (values) => {
      const id = clientIdOption(values);
      return async ({ app }) => {
        await changedClient(app.get(ApiClientsAdminService), id, { active: true });
        process.stdout.write(`client ${id} activated\n`);
      };
    },
  },
  'users:create': {
    usage: 'users:create --email EMAIL --name NAME --role support|fiscal|admin',
    description: 'Adds a person who may sign in to the console and prints their one-time link (valid 24 h) to set a password.',
    options: { email: { type: 'string' }, name: { type: 'string' }, role: { type: 'string' } },
    async prepare(values) {
      const email = String(values.email ?? '').trim();
      const name = String(values.name ?? '').trim();
      const role = String(values.role ?? '');
      if (!/^[^@\s]+@[^@\s]+$/.test(email)) throw new UsageError('--email must be an email address');
      if (!name) throw new UsageError('--name is required');
      if (!isRole(role)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
      await asTheApiChecks(CreateUserDto, { email, name, role });
      return async ({ app }) => {
        const created = await app.get(UsersService).create({ email, name, role }, commandLineContext());
        process.stdout.write(printedLink(created.user.email, created.link, created.linkExpiresAt));
      };
    },
  },
  'users:link': {
    usage: 'users:link --email EMAIL',
    description: "Prints a new one-time link to set the person's password (earlier unused links stop working).",
    options: { email: { type: 'string' } },
    prepare(values) {
      const email = String(values.email ?? '').trim();
      if (!email) throw new UsageError('--email is required');
      return async ({ app }) => {
        const issued = await app.get(UsersService).newLinkForEmail(email, commandLineContext());
        process.stdout.write(printedLink(issued.user.email, issued.link, issued.linkExpiresAt));
      };
    },
  },
  'tax-matrix:import': {
    usage: 'tax-matrix:import --group FISCAL_GROUP_ID FILE.csv',
    description: 'Replaces a fiscal group tax matrix from a CSV file (same columns as the export). Nothing changes if any row is bad.',
    options: { group: { type: 'string' } },
    prepare(values, positionals) {
      const groupId = String(values.group ?? '');
      if (!isUuid(groupId)) throw new UsageError('--group must be the fiscal group id (a UUID)');
      if (positionals.length !== 1) throw new UsageError('give exactly one CSV file');
      const file = positionals[0]!;
      return async ({ app }) => {
        const text = await readFile(file, 'utf8').catch(() => {
          throw new UsageError(`cannot read ${file}`);
        });
        const { matrix, problems, rows, stoppedAt } = csvToTaxMatrix(text, progressReporter(`validating ${fileLabel(file)}`));
        if (problems.length > 0) {
          for (const problem of problems) process.stderr.write(`${problem.field}: ${problem.problem}\n`);
          throw new Error(`${csvProblemCount(problems.length, stoppedAt)} in ${file}; the matrix was not changed`);
        }
        const group = await app.get(FiscalGroupsService).replaceTaxMatrix(groupId, matrix, commandLineContext());
        process.stdout.write(`imported ${rows} rule(s) into fiscal group ${group.id} ("${group.name}")\n`);
      };
    },
  },
};

/**
 * The options' values checked by the rules of the API's body for the same change (a name, an email or a store id the
 * API would refuse is refused here too), each problem naming its option.
 */
async function asTheApiChecks(dto: ClassConstructor<object>, values: Record<string, unknown>): Promise<void> {
  const sent = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
  const { details } = await validateDto(dto, sent, { closed: true });
  if (details.length > 0) throw new UsageError(details.map(({ field, problem }) => `--${field.split('.')[0]}: ${problem}`).join('\n'));
}

/** Changes a client as the API does (recorded in the audit log with the CLI's actor); a usage error when there is none. */
function changedClient(clients: ApiClientsAdminService, id: string, patch: UpdateClientDto) {
  return orNoClient(id, clients.update(id, patch, commandLineContext()));
}

async function orNoClient<T>(id: string, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw new UsageError(`no client ${id}`);
    throw error;
  }
}

function printedLink(email: string, link: string, expiresAt: string): string {
  return [`person:  ${email}`, `link:    ${link}`, `expires: ${expiresAt}`, '', 'Open the link to set a password; it works once.', ''].join(
    '\n',
  );
}

function fileLabel(file: string): string {
  return file.split('/').pop() ?? file;
}

/** The listed scopes, or null when the list is empty or names an unknown scope. */
function scopesOption(values: Values): Scope[] | null {
  const scopes = String(values.scopes ?? '')
    .split(',')
    .map((scope) => scope.trim())
    .filter(Boolean);
  return scopes.length > 0 && scopes.every(isScope) ? scopes : null;
}

/** `--stores 162,163` as store ids; undefined when not given. */
function storesOption(values: Values): string[] | undefined {
  if (values.stores === undefined) return undefined;
  const stores = String(values.stores)
    .split(',')
    .map((store) => store.trim())
    .filter(Boolean);
  if (stores.length === 0) throw new UsageError('--stores must list store ids (use --all-stores for every store)');
  return stores;
}

function describeStores(stores: readonly string[]): string {
  return stores.length > 0 ? stores.join(',') : 'all';
}

function clientIdOption(values: Values): string {
  const id = String(values.id ?? '');
  if (!/^\d{1,20}$/.test(id)) throw new UsageError('--id must be a client id (a number)');
  return id;
}

function help(): string {
  return [
    'Usage: npm run cli -- <command> [options]',
    '',
    ...Object.values(COMMANDS).map((command) => `  ${command.usage}\n      ${command.description}`),
    '',
  ].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const command = name ? COMMANDS[name] : undefined;
  if (!command) {
    process.stderr.write(name && name !== 'help' && name !== '--help' ? `Unknown command ${name}\n\n${help()}` : help());
    return name && name !== 'help' && name !== '--help' ? 64 : 0;
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      options: command.options,
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\nUsage: npm run cli -- ${command.usage}\n`);
    return 64;
  }
  let context: CliContext | undefined;
  try {
    const work = await command.prepare(parsed.values as Values, parsed.positionals);
    context = await openCliContext();
    await work(context);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\nUsage: npm run cli -- ${command.usage}\n`);
      return 64;
    }
    if (error instanceof ApiError) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    if (error instanceof ConfigValidationError) {
      process.stderr.write(`${error.message}\n`);
      return 78;
    }
    if (error instanceof DatabaseUnreachableError) {
      process.stderr.write(`${error.message}\n`);
      return EXIT_DATABASE_UNREACHABLE;
    }
    process.stderr.write(`${(error as Error).message ?? error}\n`);
    return 1;
  } finally {
    await context?.close();
  }
}

void main(process.argv.slice(2)).then((code) => process.exit(code));

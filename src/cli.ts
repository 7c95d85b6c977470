import { parseArgs } from 'node:util';
import { z } from 'zod';
import * as admin from './auth/admin.js';
import { loadConfig } from './config.js';
import { connect, type Db } from './db/client.js';
import { migrate } from './db/migrate.js';
import { openDatabase } from './db/open.js';
import { seedMarket } from './data/market.js';
import { demoTick } from './data/demo-tick.js';
import { importData, IMPORT_FORMATS } from './data/import/index.js';
import { shopDomain } from './data/import/shopify-products.js';
import { apiError, isErrorCode } from './errors.js';
import { listSchedules } from './jobs/index.js';
import { listRuns, SOURCE_NAMES, sourceStatuses, syncSource, type SyncRunRow } from './sources/index.js';

// Operator CLI: `npm run --silent cli -- <command>`. Prints exactly one JSON object on stdout
// (`{ "error": { code, message } }` on failure, with a non-zero exit). Progress goes to stderr.
// With the server running on the embedded database, it uses that server's loopback socket.

type Options = Record<string, string | boolean | undefined>;
type Command = {
  usage: string;
  options: Record<string, { type: 'string' | 'boolean' }>;
  /** The command takes positional arguments (after its name). */
  positionals?: boolean;
  run(db: Db, o: Options, args: string[]): Promise<object>;
};

const uuid = (name: string) => z.string().uuid({ message: `--${name} must be a uuid` });
const count = (name: string) => z.coerce.number({ message: `--${name} must be a number` }).int(`--${name} must be a whole number`).min(0, `--${name} must not be negative`);
const required = (name: string) => z.string({ message: `--${name} is required` }).min(1, `--${name} is required`);
const oneOf = <const T extends readonly [string, ...string[]]>(name: string, values: T) => z.enum(values, { message: `--${name} must be one of ${values.join(', ')}` });

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) throw apiError('validation_error', result.error.issues[0].message);
  return result.data;
}
const opt = <T>(schema: z.ZodType<T>, value: unknown): T | undefined => (value === undefined ? undefined : parse(schema, value));
const text = { type: 'string' } as const;

const commands: Record<string, Command> = {
  'workspace create': {
    usage: 'workspace create --slug S [--name N] [--plan P] [--credits N] [--api-access enabled|disabled|suspended|none]',
    options: { slug: text, name: text, plan: text, credits: text, 'api-access': text },
    run: ({ prisma }, o) =>
      admin.createWorkspace(prisma, {
        slug: parse(required('slug'), o.slug),
        name: o.name as string | undefined,
        plan: o.plan as string | undefined,
        credits: opt(count('credits'), o.credits),
        apiAccess: opt(oneOf('api-access', ['enabled', 'disabled', 'suspended', 'none']), o['api-access']),
      }),
  },
  'workspace set-access': {
    usage: 'workspace set-access --workspace S --api-access enabled|disabled|suspended',
    options: { workspace: text, 'api-access': text },
    run: ({ prisma }, o) =>
      admin.setApiAccess(prisma, parse(required('workspace'), o.workspace), parse(oneOf('api-access', ['enabled', 'disabled', 'suspended']), o['api-access'])),
  },
  'user create': {
    usage: 'user create --workspace S --name N --role owner|admin|member|readonly',
    options: { workspace: text, name: text, role: text },
    run: ({ prisma }, o) =>
      admin.createUser(prisma, {
        workspace: parse(required('workspace'), o.workspace),
        name: parse(required('name'), o.name),
        role: parse(oneOf('role', ['owner', 'admin', 'member', 'readonly']), o.role),
      }),
  },
  'user revoke': {
    usage: 'user revoke --id U',
    options: { id: text },
    run: ({ prisma }, o) => admin.revokeUser(prisma, parse(uuid('id'), o.id)),
  },
  'key create': {
    usage: 'key create --workspace S [--name N] [--description D] [--access full_access|delegated_user] [--user U] [--expires-at ISO]',
    options: { workspace: text, name: text, description: text, access: text, user: text, 'expires-at': text },
    run: ({ prisma }, o) =>
      admin.createKey(prisma, {
        workspace: parse(required('workspace'), o.workspace),
        name: o.name as string | undefined,
        description: o.description as string | undefined,
        access: opt(oneOf('access', ['full_access', 'delegated_user']), o.access),
        user: opt(uuid('user'), o.user),
        expiresAt: opt(z.coerce.date({ message: '--expires-at must be an ISO 8601 date-time' }), o['expires-at']),
      }),
  },
  'key revoke': { usage: 'key revoke --id C', options: { id: text }, run: ({ prisma }, o) => admin.revokeKey(prisma, parse(uuid('id'), o.id)) },
  'key delete': { usage: 'key delete --id C', options: { id: text }, run: ({ prisma }, o) => admin.deleteKey(prisma, parse(uuid('id'), o.id)) },
  'credits set': {
    usage: 'credits set --workspace S [--recurring-limit N] [--recurring-used N] [--topup N]',
    options: { workspace: text, 'recurring-limit': text, 'recurring-used': text, topup: text },
    run: ({ prisma }, o) =>
      admin.setCredits(prisma, {
        workspace: parse(required('workspace'), o.workspace),
        recurringLimit: opt(count('recurring-limit'), o['recurring-limit']),
        recurringUsed: opt(count('recurring-used'), o['recurring-used']),
        topup: opt(count('topup'), o.topup),
      }),
  },
  seed: {
    usage: 'seed [--scale tiny|small|medium|large] [--seed N] [--replace]',
    options: { scale: text, seed: text, replace: { type: 'boolean' } },
    async run({ pool }, o) {
      const scale = opt(oneOf('scale', ['tiny', 'small', 'medium', 'large']), o.scale) ?? 'tiny';
      const seed = opt(count('seed'), o.seed);
      // Progress goes to stderr: a bar per table on a terminal, plain lines otherwise.
      const { seedProgressPrinter } = await import('./data/market/progress.js');
      const progress = seedProgressPrinter(process.stderr);
      const result = await seedMarket(pool, { scale, seed, replace: o.replace === true, onProgress: progress.onProgress })
        .catch((error: Error) => {
          throw /already hold/.test(error.message) ? apiError('conflict', 'The market tables already hold data; add --replace to reseed them.') : error;
        })
        .finally(() => progress.finish());
      return { scale, seed: seed ?? 42, ...result };
    },
  },
  'demo tick': {
    usage: 'demo tick [--as-of YYYY-MM-DD] [--seed N]   (advances the demo market by one day; the same day again changes nothing)',
    options: { 'as-of': text, seed: text },
    async run({ pool }, o) {
      const asOf = opt(z.coerce.date({ message: '--as-of must be an ISO 8601 date like 2025-06-01' }), o['as-of']);
      return demoTick(pool, { asOf, seed: opt(count('seed'), o.seed) }).catch((error: Error) => {
        throw /already advanced/.test(error.message) ? apiError('conflict', error.message) : error;
      });
    },
  },
  import: {
    usage: `import ${IMPORT_FORMATS.join('|')} <file|dir> [...] [--as-of ISO] [--domain D (shopify-products, required)]`,
    options: { 'as-of': text, domain: text },
    positionals: true,
    async run({ pool }, o, args) {
      const [format, ...paths] = args;
      const chosen = parse(oneOf('format', IMPORT_FORMATS), format);
      if (paths.length === 0) throw apiError('validation_error', 'import needs at least one file or directory');
      const asOf = opt(z.coerce.date({ message: '--as-of must be an ISO 8601 date or date-time' }), o['as-of']);
      if (chosen !== 'shopify-products' && o.domain !== undefined) throw apiError('validation_error', '--domain applies to shopify-products only');
      const domain = chosen === 'shopify-products' ? parse(required('domain'), o.domain) : undefined;
      if (domain !== undefined && !shopDomain(domain)) throw apiError('validation_error', "--domain must be the shop's domain, like example.com");
      return importData(pool, chosen, paths, { asOf, domain });
    },
  },
  'sync run': {
    usage:
      'sync run meta-ads --countries FR[,DE] (--search "T" | --page-ids A,B) [--active-status ALL|ACTIVE|INACTIVE] [--from D] [--to D] [--limit N]\n' +
      '  sync run tiktok-ads --countries FR[,DE] (--search "T" | --advertiser-ids A,B) [--from D] [--to D] [--max-count N]\n' +
      '  sync run shopify [--domain D[,E]] [--force]   (no --domain: every tracked shop and SHOPIFY_DOMAINS)\n' +
      '  (every sync run: [--as-of ISO])',
    options: {
      countries: text, search: text, 'page-ids': text, 'active-status': text, from: text, to: text, limit: text,
      'advertiser-ids': text, 'max-count': text, domain: text, force: { type: 'boolean' }, 'as-of': text,
    },
    positionals: true,
    async run({ pool }, o, args) {
      const source = parse(oneOf('source', SOURCE_NAMES as [string, ...string[]]), args[0]);
      if (args.length > 1) throw apiError('validation_error', `sync run takes one source, got ${args.join(' ')}`);
      const asOf = opt(z.coerce.date({ message: '--as-of must be an ISO 8601 date or date-time' }), o['as-of']);
      const query = syncQuery(source, o);
      const controller = new AbortController();
      const interrupt = () => controller.abort(new Error('interrupted (SIGINT)'));
      process.once('SIGINT', interrupt);
      process.once('SIGTERM', interrupt);
      const progress = syncProgress(source);
      try {
        return summarize(await syncSource(pool, source, query, { asOf, signal: controller.signal, onPage: progress.page, onProgress: progress.progress, onWait: progress.wait }));
      } finally {
        progress.finish();
        process.off('SIGINT', interrupt);
        process.off('SIGTERM', interrupt);
      }
    },
  },
  'sync status': {
    usage: 'sync status [--source S] [--limit N]',
    options: { source: text, limit: text },
    async run({ pool }, o) {
      const source = opt(oneOf('source', SOURCE_NAMES as [string, ...string[]]), o.source);
      const limit = opt(count('limit'), o.limit) ?? 10;
      const [sources, runs] = await Promise.all([sourceStatuses(pool), listRuns(pool, { source, limit })]);
      return { sources: source ? sources.filter((s) => s.source === source) : sources, runs: runs.map(summarize) };
    },
  },
  'sync schedule': {
    usage: 'sync schedule list   (the schedules of SYNC_SCHEDULES / SYNC_CONFIG, as the job queue holds them)',
    options: {},
    positionals: true,
    async run({ pool }, _o, args) {
      if (args.join(' ') !== 'list') throw apiError('validation_error', 'usage: sync schedule list');
      const schedules = await listSchedules(pool).catch((error: Error) => {
        throw /^(SYNC_|\/)/.test(error.message) ? apiError('validation_error', error.message) : error;
      });
      return { schedules };
    },
  },
  migrate: {
    usage: 'migrate',
    options: {},
    run: async ({ pool }) => ({ applied: await migrate(pool) }),
  },
};

const list = (value: unknown) => (typeof value === 'string' ? value.split(',').map((item) => item.trim()).filter(Boolean) : undefined);
const int = (name: string, value: unknown) => opt(count(name), value);

/** The query of a source from the flags: the connector checks it (and names a flag of another source as unknown). */
function syncQuery(source: string, o: Options): Record<string, unknown> {
  const given = (names: string[]) => names.filter((name) => o[name] !== undefined);
  const allowed: Record<string, string[]> = {
    'meta-ads': ['countries', 'search', 'page-ids', 'active-status', 'from', 'to', 'limit'],
    'tiktok-ads': ['countries', 'search', 'advertiser-ids', 'from', 'to', 'max-count'],
    shopify: ['domain', 'force'],
  };
  const foreign = given(Object.keys(o).filter((name) => name !== 'as-of' && !allowed[source].includes(name)));
  if (foreign.length) throw apiError('validation_error', `--${foreign[0]} does not apply to ${source}`);
  const countries = list(o.countries)?.map((code) => code.toUpperCase());
  if (source === 'meta-ads') {
    return {
      countries, search: o.search, pageIds: list(o['page-ids']), activeStatus: o['active-status'],
      deliveredFrom: o.from, deliveredTo: o.to, limit: int('limit', o.limit),
    };
  }
  if (source === 'tiktok-ads') {
    return { countries, search: o.search, advertiserIds: list(o['advertiser-ids']), from: o.from, to: o.to, maxCount: int('max-count', o['max-count']) };
  }
  return { domains: list(o.domain), force: o.force === true ? true : undefined };
}

/** A run as the CLI prints it. */
function summarize(run: SyncRunRow) {
  const { cursor, heartbeatAt, ...rest } = run;
  void heartbeatAt;
  return { ...rest, resumable: run.status !== 'succeeded' && cursor !== null };
}

/** `[#####.....] 52%`: how far along, in ten steps. */
function progressBar(done: number, total: number): string {
  const ratio = total > 0 ? Math.min(1, Math.max(0, done / total)) : 1;
  const filled = Math.floor(ratio * 10);
  return `[${'#'.repeat(filled)}${'.'.repeat(10 - filled)}] ${Math.floor(ratio * 100)}%`;
}

/**
 * Progress on stderr: one line rewritten in place on a terminal (at each page and each step of the connector's
 * progress), a line per 10 pages otherwise; a bar and a percentage once the connector has told how far it is.
 */
function syncProgress(source: string) {
  const tty = process.stderr.isTTY === true;
  const started = Date.now();
  let shown = false;
  let last: SyncRunRow | undefined;
  let along: { done: number; total: number } | undefined;
  const line = () => {
    const seconds = (Date.now() - started) / 1000;
    const fetched = last?.fetched ?? 0;
    const rate = seconds > 0 ? Math.round(fetched / seconds) : 0;
    const bar = along ? `${progressBar(along.done, along.total)} · ` : '';
    return `${source}: ${bar}page ${last?.pages ?? 0} · ${fetched} fetched (${rate}/s) · ${last?.inserted ?? 0} new · ${last?.updated ?? 0} changed · ` +
      `${last?.unchanged ?? 0} unchanged · ${last?.skipped ?? 0} skipped`;
  };
  const redraw = () => {
    process.stderr.write(`\r\x1b[2K${line()}`);
    shown = true;
  };
  return {
    page(run: SyncRunRow) {
      last = run;
      if (tty) redraw();
      else if (run.pages % 10 === 1) process.stderr.write(`${line()}\n`);
    },
    progress(done: number, total: number | null) {
      along = total === null ? undefined : { done, total };
      if (tty) redraw();
    },
    wait(wait: { reason: string; ms: number }) {
      process.stderr.write(`${tty && shown ? '\n' : ''}${source}: waiting ${(wait.ms / 1000).toFixed(1)} s (${wait.reason})\n`);
      shown = false;
    },
    finish() {
      if (tty && shown) process.stderr.write('\n');
    },
  };
}

function usage(): string {
  return `commands:\n${Object.values(commands).map((c) => `  ${c.usage}`).join('\n')}`;
}

async function main(argv: string[]): Promise<object> {
  const name = commands[`${argv[0]} ${argv[1]}`] ? `${argv[0]} ${argv[1]}` : argv[0];
  const command = commands[name ?? ''];
  if (!command) throw apiError('validation_error', `unknown command "${argv.slice(0, 2).join(' ')}"\n${usage()}`);
  let values: Options;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: argv.slice(name.split(' ').length), options: command.options, strict: true, allowPositionals: command.positionals === true }));
  } catch (error) {
    throw apiError('validation_error', `${(error as Error).message}\nusage: ${command.usage}`);
  }
  const location = await openDatabase(loadConfig(), { shareRunning: true });
  const db = connect(location.url, { max: 2 });
  try {
    if (name !== 'migrate') await migrate(db.pool);
    return await command.run(db, values, positionals);
  } finally {
    await db.close();
    await location.close();
  }
}

try {
  const result = await main(process.argv.slice(2));
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exitCode = 0;
} catch (error) {
  const code = error instanceof Error && 'extensions' in error && isErrorCode((error as { extensions: { code?: unknown } }).extensions.code)
    ? (error as { extensions: { code: string } }).extensions.code
    : 'internal_error';
  const message = error instanceof Error ? error.message : String(error);
  process.stdout.write(`${JSON.stringify({ error: { code, message } })}\n`);
  process.exitCode = 1;
}

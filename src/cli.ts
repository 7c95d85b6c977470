import { stat } from 'node:fs/promises';
import nodeModule from 'node:module';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import type { Db } from './db/client.js';
import { IMPORT_FORMATS } from './data/import/formats.js';
import type { SyncRunRow } from './sources/index.js';
import { useBaselineWasmCompilerOnly } from './wasm-tiering.js';

// Operator CLI: `npm run --silent cli -- <command>` (the build, dist/src/cli.js, as `npm start` runs the server).
// Prints exactly one JSON object on stdout (`{ "error": { code, message } }` on failure, with a non-zero exit).
// Progress goes to stderr. With the server running on the embedded database, it uses that server's loopback socket.
// Each command loads the modules it needs when it runs: `--help`, a bad command line and the admin commands do not
// load the connectors, the job queue or the market generator.

// Most commands run for a second or two: V8's optimising compiler would spend more CPU on Prisma's query compiler
// (WebAssembly, compiled when the first query is) than it saves, so only its baseline compiler runs (half the CPU time of
// `workspace create`), even when the command starts the embedded database itself. The modules a command loads are
// compiled from Node's on-disk cache after the first run.
useBaselineWasmCompilerOnly();
// (Node ≥ 22.1; the installed @types/node predates it.)
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

/** The exit codes (README, *Operator CLI*). */
const EXIT = { ok: 0, failed: 1, refused: 2 } as const;

type Options = Record<string, string | boolean | undefined>;
type Command = {
  usage: string;
  /** What it does, in a line of `--help`. */
  summary: string;
  options: Record<string, { type: 'string' | 'boolean' }>;
  /** The command takes positional arguments (after its name). */
  positionals?: boolean;
  /** `db()` opens the database: a command checks its arguments first, so a refused one never opens it. */
  run(db: () => Promise<Db>, o: Options, args: string[]): Promise<object>;
};

/** A failure the CLI states itself; `validation_error` (the command line or a value refused) exits 2. */
class CliError extends Error {
  constructor(readonly code: string, message: string, readonly details?: object) {
    super(message);
  }
}
const refused = (message: string) => new CliError('validation_error', message);

const uuid = (name: string) => z.string().uuid({ message: `--${name} must be a uuid` });
const count = (name: string) => z.coerce.number({ message: `--${name} must be a number` }).int(`--${name} must be a whole number`).min(0, `--${name} must not be negative`);
const required = (name: string) => z.string({ message: `--${name} is required` }).min(1, `--${name} is required`);
const oneOf = <const T extends readonly [string, ...string[]]>(name: string, values: T) => z.enum(values, { message: `--${name} must be one of ${values.join(', ')}` });

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) throw refused(result.error.issues[0].message);
  return result.data;
}
const opt = <T>(schema: z.ZodType<T>, value: unknown): T | undefined => (value === undefined ? undefined : parse(schema, value));
const text = { type: 'string' } as const;
const admin = () => import('./auth/admin.js');
const prismaOf = async (db: () => Promise<Db>) => (await db()).prisma;

const commands: Record<string, Command> = {
  'workspace create': {
    usage: 'workspace create --slug S [--name N] [--plan P] [--credits N] [--api-access enabled|disabled|suspended|none]',
    summary: 'creates a workspace with its credit account (--credits: the monthly allowance, default 10,000)',
    options: { slug: text, name: text, plan: text, credits: text, 'api-access': text },
    async run(db, o) {
      const input = {
        slug: parse(required('slug'), o.slug),
        name: o.name as string | undefined,
        plan: o.plan as string | undefined,
        credits: opt(count('credits'), o.credits),
        apiAccess: opt(oneOf('api-access', ['enabled', 'disabled', 'suspended', 'none']), o['api-access']),
      };
      return (await admin()).createWorkspace(await prismaOf(db), input);
    },
  },
  'workspace set-access': {
    usage: 'workspace set-access --workspace S --api-access enabled|disabled|suspended',
    summary: "sets a workspace's API access",
    options: { workspace: text, 'api-access': text },
    async run(db, o) {
      const [workspace, access] = [parse(required('workspace'), o.workspace), parse(oneOf('api-access', ['enabled', 'disabled', 'suspended']), o['api-access'])];
      return (await admin()).setApiAccess(await prismaOf(db), workspace, access);
    },
  },
  'user create': {
    usage: 'user create --workspace S --name N --role owner|admin|member|readonly',
    summary: 'creates a delegated user of a workspace',
    options: { workspace: text, name: text, role: text },
    async run(db, o) {
      const input = {
        workspace: parse(required('workspace'), o.workspace),
        name: parse(required('name'), o.name),
        role: parse(oneOf('role', ['owner', 'admin', 'member', 'readonly']), o.role),
      };
      return (await admin()).createUser(await prismaOf(db), input);
    },
  },
  'user revoke': {
    usage: 'user revoke --id U',
    summary: "revokes a delegated user (its keys stop working)",
    options: { id: text },
    async run(db, o) {
      const id = parse(uuid('id'), o.id);
      return (await admin()).revokeUser(await prismaOf(db), id);
    },
  },
  'key create': {
    usage: 'key create --workspace S [--name N] [--description D] [--access full_access|delegated_user] [--user U] [--expires-at ISO]',
    summary: 'creates an API key (shown once; only its hash is stored)',
    options: { workspace: text, name: text, description: text, access: text, user: text, 'expires-at': text },
    async run(db, o) {
      const input = {
        workspace: parse(required('workspace'), o.workspace),
        name: o.name as string | undefined,
        description: o.description as string | undefined,
        access: opt(oneOf('access', ['full_access', 'delegated_user']), o.access),
        user: opt(uuid('user'), o.user),
        expiresAt: opt(z.coerce.date({ message: '--expires-at must be an ISO 8601 date-time' }), o['expires-at']),
      };
      return (await admin()).createKey(await prismaOf(db), input);
    },
  },
  'key revoke': {
    usage: 'key revoke --id C',
    summary: 'revokes an API key',
    options: { id: text },
    async run(db, o) {
      const id = parse(uuid('id'), o.id);
      return (await admin()).revokeKey(await prismaOf(db), id);
    },
  },
  'key delete': {
    usage: 'key delete --id C',
    summary: 'deletes an API key',
    options: { id: text },
    async run(db, o) {
      const id = parse(uuid('id'), o.id);
      return (await admin()).deleteKey(await prismaOf(db), id);
    },
  },
  'credits set': {
    usage: 'credits set --workspace S [--recurring-limit N] [--recurring-used N] [--topup N]',
    summary: "sets a workspace's credit pools (each change written to the credit ledger)",
    options: { workspace: text, 'recurring-limit': text, 'recurring-used': text, topup: text },
    async run(db, o) {
      const input = {
        workspace: parse(required('workspace'), o.workspace),
        recurringLimit: opt(count('recurring-limit'), o['recurring-limit']),
        recurringUsed: opt(count('recurring-used'), o['recurring-used']),
        topup: opt(count('topup'), o.topup),
      };
      return (await admin()).setCredits(await prismaOf(db), input);
    },
  },
  seed: {
    usage: 'seed [--scale tiny|small|medium|large] [--seed N] [--replace]',
    summary: 'loads the synthetic market (--replace empties the market tables first)',
    options: { scale: text, seed: text, replace: { type: 'boolean' } },
    async run(db, o) {
      const scale = opt(oneOf('scale', ['tiny', 'small', 'medium', 'large']), o.scale) ?? 'tiny';
      const seed = opt(count('seed'), o.seed);
      const { pool } = await db();
      const [{ seedMarket }, { seedProgressPrinter }] = await Promise.all([import('./data/market.js'), import('./data/market/progress.js')]);
      // Progress goes to stderr: a bar per table on a terminal, plain lines otherwise.
      const progress = seedProgressPrinter(process.stderr);
      const result = await seedMarket(pool, { scale, seed, replace: o.replace === true, onProgress: progress.onProgress })
        .catch((error: Error) => {
          throw /already hold/.test(error.message) ? new CliError('conflict', 'The market tables already hold data; add --replace to reseed them.') : error;
        })
        .finally(() => progress.finish());
      return { scale, seed: seed ?? 42, ...result };
    },
  },
  'demo tick': {
    usage: 'demo tick [--as-of YYYY-MM-DD] [--seed N]',
    summary: 'advances the demo market by one day (the same day again changes nothing)',
    options: { 'as-of': text, seed: text },
    async run(db, o) {
      const asOf = opt(z.coerce.date({ message: '--as-of must be an ISO 8601 date like 2025-06-01' }), o['as-of']);
      const seed = opt(count('seed'), o.seed);
      const { pool } = await db();
      const { demoTick } = await import('./data/demo-tick.js');
      return demoTick(pool, { asOf, seed }).catch((error: Error) => {
        throw /already advanced/.test(error.message) ? new CliError('conflict', error.message) : error;
      });
    },
  },
  import: {
    usage: `import ${IMPORT_FORMATS.join('|')} <file|dir> [...] [--as-of ISO] [--domain D (shopify-products, required)]`,
    summary: 'imports files (a folder: its files in name order); exits 1 when a file or a batch was not imported',
    options: { 'as-of': text, domain: text },
    positionals: true,
    async run(db, o, args) {
      const [format, ...paths] = args;
      const chosen = parse(oneOf('format', IMPORT_FORMATS), format);
      if (paths.length === 0) throw refused('import needs at least one file or directory');
      const asOf = opt(z.coerce.date({ message: '--as-of must be an ISO 8601 date or date-time' }), o['as-of']);
      if (chosen !== 'shopify-products' && o.domain !== undefined) throw refused('--domain applies to shopify-products only');
      const domain = chosen === 'shopify-products' ? parse(required('domain'), o.domain) : undefined;
      const [{ importData }, { shopDomain }] = await Promise.all([import('./data/import/index.js'), import('./data/import/shopify-products.js')]);
      if (domain !== undefined && !shopDomain(domain)) throw refused("--domain must be the shop's domain, like example.com");
      // A path that is not there is a typo: nothing is imported.
      const missing = (await Promise.all(paths.map((file) => stat(file).then(() => null, () => file)))).filter((file) => file !== null);
      if (missing.length) throw refused(`no such file or directory: ${missing.join(', ')}`);
      const summary = await importData((await db()).pool, chosen, paths, { asOf, domain });
      // An error without a position is a file (or a batch of one) that was not imported: the import failed.
      const failed = summary.errors.filter((error) => error.position === null);
      if (failed.length) {
        const first = failed[0];
        throw new CliError('validation_error', `${failed.length === 1 ? '1 file or batch' : `${failed.length} files or batches`} not imported; the first: ${first.file}: ${first.reason}`, summary);
      }
      return summary;
    },
  },
  'sync run': {
    usage:
      'sync run meta-ads --countries FR[,DE] (--search "T" | --page-ids A,B) [--active-status ALL|ACTIVE|INACTIVE] [--from D] [--to D] [--limit N]\n' +
      '  sync run tiktok-ads --countries FR[,DE] (--search "T" | --advertiser-ids A,B) [--from D] [--to D] [--max-count N]\n' +
      '  sync run shopify [--domain D[,E]] [--force]   (no --domain: every tracked shop and SHOPIFY_DOMAINS)\n' +
      '  (every sync run: [--as-of ISO])',
    summary: 'one run of a source\'s connector, with progress on stderr; Ctrl-C stops it as interrupted, the same command resumes it',
    options: {
      countries: text, search: text, 'page-ids': text, 'active-status': text, from: text, to: text, limit: text,
      'advertiser-ids': text, 'max-count': text, domain: text, force: { type: 'boolean' }, 'as-of': text,
    },
    positionals: true,
    async run(db, o, args) {
      const { SOURCE_NAMES, syncSource } = await import('./sources/index.js');
      const source = parse(oneOf('source', SOURCE_NAMES as [string, ...string[]]), args[0]);
      if (args.length > 1) throw refused(`sync run takes one source, got ${args.join(' ')}`);
      const asOf = opt(z.coerce.date({ message: '--as-of must be an ISO 8601 date or date-time' }), o['as-of']);
      const query = syncQuery(source, o);
      const { pool } = await db();
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
    summary: "each source's freshness and totals, and the latest runs",
    options: { source: text, limit: text },
    async run(db, o) {
      const { listRuns, SOURCE_NAMES, sourceStatuses } = await import('./sources/index.js');
      const source = opt(oneOf('source', SOURCE_NAMES as [string, ...string[]]), o.source);
      const limit = opt(count('limit'), o.limit) ?? 10;
      const { pool } = await db();
      const [sources, runs] = await Promise.all([sourceStatuses(pool), listRuns(pool, { source, limit })]);
      return { sources: source ? sources.filter((s) => s.source === source) : sources, runs: runs.map(summarize) };
    },
  },
  'sync schedule': {
    usage: 'sync schedule list',
    summary: 'the schedules of SYNC_SCHEDULES / SYNC_CONFIG, as the job queue holds them',
    options: {},
    positionals: true,
    async run(db, _o, args) {
      if (args.join(' ') !== 'list') throw refused('usage: sync schedule list');
      const { listSchedules } = await import('./jobs/index.js');
      const schedules = await listSchedules((await db()).pool).catch((error: Error) => {
        throw /^(SYNC_|\/)/.test(error.message) ? refused(error.message) : error;
      });
      return { schedules };
    },
  },
  migrate: {
    usage: 'migrate',
    summary: 'applies the pending migrations (every other command does it first too)',
    options: {},
    run: async (db) => {
      const { migrate } = await import('./db/migrate.js');
      return { applied: await migrate((await db()).pool) };
    },
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
  if (foreign.length) throw refused(`--${foreign[0]} does not apply to ${source}`);
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

const HELP = new Set(['--help', '-h', 'help']);

function usage(): string {
  return [
    'usage: npm run --silent cli -- <command> [options]      (node dist/src/cli.js <command> after npm run build)',
    '',
    'commands:',
    ...Object.values(commands).flatMap((c) => [`  ${c.usage}`, `      ${c.summary}`]),
    '',
    '<command> --help shows one command. Each command prints one JSON object on stdout, on failure',
    '{"error":{"code","message"}}; progress goes to stderr.',
    'exit codes: 0 done; 1 failed (not_found, conflict, internal_error, an import with a file not imported);',
    '            2 refused: an unknown command or option, a missing or bad value (validation_error); nothing was done.',
    'database: DATABASE_URL, else the embedded one in DATA_DIR (./.data), through the running server when one serves it.',
  ].join('\n');
}

function commandHelp(names: string[]): string {
  return names.map((name) => `usage: ${commands[name].usage}\n  ${commands[name].summary}`).join('\n\n');
}

/** The command named by the first words of `argv`: two words (`workspace create`), else one (`seed`). */
function commandOf(argv: string[]): string | undefined {
  const two = `${argv[0]} ${argv[1]}`;
  if (Object.hasOwn(commands, two)) return two;
  return argv[0] !== undefined && Object.hasOwn(commands, argv[0]) ? argv[0] : undefined;
}

type Outcome = { exitCode: number; stdout: string; stderr?: string };

async function main(argv: string[]): Promise<Outcome> {
  // `help`, `--help`, `-h` (alone or before a command), `<command> --help`, `workspace --help` (the commands of a group).
  if (argv.length === 0) return { exitCode: EXIT.refused, stdout: errorLine('validation_error', 'no command given; see --help'), stderr: usage() };
  const asksHelp = HELP.has(argv[0]) || argv.includes('--help') || argv.includes('-h');
  const words = HELP.has(argv[0]) ? argv.slice(1) : argv.filter((arg) => !HELP.has(arg));
  const name = commandOf(words);
  if (asksHelp) {
    const group = Object.keys(commands).filter((command) => words[0] !== undefined && command.startsWith(`${words[0]} `));
    if (name) return { exitCode: EXIT.ok, stdout: commandHelp([name]) };
    if (group.length) return { exitCode: EXIT.ok, stdout: commandHelp(group) };
    if (words.length === 0) return { exitCode: EXIT.ok, stdout: usage() };
  }
  if (!name) {
    const group = Object.keys(commands).filter((command) => command.startsWith(`${argv[0]} `));
    const hint = group.length ? `: one of ${group.join(', ')}` : '; see --help';
    return { exitCode: EXIT.refused, stdout: errorLine('validation_error', `unknown command "${argv.slice(0, 2).join(' ')}"${hint}`), stderr: usage() };
  }
  const command = commands[name];
  let values: Options;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: argv.slice(name.split(' ').length), options: command.options, strict: true, allowPositionals: command.positionals === true }));
  } catch (error) {
    throw refused(`${(error as Error).message}\nusage: ${command.usage}`);
  }
  let opened: Promise<{ db: Db; close(): Promise<void> }> | undefined;
  const open = async () => {
    const [{ loadConfig }, { openDatabase }, { connect }, { migrate }] = await Promise.all([
      import('./config.js'), import('./db/open.js'), import('./db/client.js'), import('./db/migrate.js'),
    ]);
    const location = await openDatabase(loadConfig(), { shareRunning: true });
    const db = connect(location.url, { max: 2 });
    const close = async () => {
      await db.close();
      await location.close();
    };
    if (name !== 'migrate') await migrate(db.pool).catch(async (error: unknown) => {
      await close();
      throw error;
    });
    return { db, close };
  };
  try {
    return { exitCode: EXIT.ok, stdout: JSON.stringify(await command.run(async () => (await (opened ??= open())).db, values, positionals)) };
  } finally {
    if (opened) await (await opened.catch(() => undefined))?.close();
  }
}

function errorLine(code: string, message: string, details?: object): string {
  return JSON.stringify({ error: { code, message }, ...details });
}

/** A failure as one JSON line: the code of a deliberate error (the CLI's or the specification's), else `internal_error`. */
async function failure(error: unknown): Promise<Outcome> {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof CliError) {
    const exitCode = error.code === 'validation_error' && !error.details ? EXIT.refused : EXIT.failed;
    return { exitCode, stdout: errorLine(error.code, message, error.details) };
  }
  const { isErrorCode } = await import('./errors.js');
  const code = (error as { extensions?: { code?: unknown } } | null)?.extensions?.code;
  if (isErrorCode(code)) return { exitCode: code === 'validation_error' ? EXIT.refused : EXIT.failed, stdout: errorLine(code, message) };
  return { exitCode: EXIT.failed, stdout: errorLine('internal_error', message) };
}

const outcome = await main(process.argv.slice(2)).catch(failure);
if (outcome.stderr) process.stderr.write(`${outcome.stderr}\n`);
// Exits once the answer is written: everything was closed, and the closed sockets' teardown would otherwise keep
// the process a few hundred milliseconds more.
process.stdout.write(`${outcome.stdout}\n`, () => process.exit(outcome.exitCode));

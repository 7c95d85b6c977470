import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthenticator } from '../../src/auth/authenticate.js';
import type { Db } from '../../src/db/client.js';
import { createCliHarness, type CliHarness } from '../support/cli.js';

// The CLI runs as a child process. On PGlite this test process plays the running server: it serves the
// embedded database of a data directory, and the CLI must use it through the loopback port.
let harness: CliHarness;
let db: Db;

beforeAll(async () => {
  harness = await createCliHarness();
  db = harness.db;
});
afterAll(() => harness?.close());

const cli = (...args: string[]) => harness.cli(...args);

// What does not depend on the database the CLI opens runs in one project only: the usage (no database at all), and the
// seed command (a wrapper of seedMarket, which test/data/market.test.ts loads on both databases), on the embedded one.
const once = process.env.TEST_DB === 'postgres' ? it.skip : it;

describe('operator CLI', () => {
  it('creates a workspace, a delegated user and keys that authenticate, then revokes and deletes them', async () => {
    const workspace = await cli('workspace', 'create', '--slug', 'acme', '--name', 'Acme', '--plan', 'pro', '--credits', '500');
    expect(workspace.code).toBe(0);
    expect(workspace.stdout.trim().split('\n')).toHaveLength(1);
    expect(workspace.json).toEqual({ workspaceId: expect.any(String), slug: 'acme' });

    const user = await cli('user', 'create', '--workspace', 'acme', '--name', 'Rita Reader', '--role', 'readonly');
    expect(user.json).toEqual({ userId: expect.any(String) });

    const key = await cli('key', 'create', '--workspace', 'acme', '--access', 'delegated_user', '--user', user.json.userId, '--name', 'Reader key');
    expect(key.json).toEqual({ apiKey: expect.stringMatching(/^mik_/), credentialId: expect.any(String), workspaceId: workspace.json.workspaceId });

    const authenticate = createAuthenticator(db.prisma);
    const principal = await authenticate(`Bearer ${key.json.apiKey}`);
    expect(principal.delegatedUser).toMatchObject({ id: user.json.userId, role: 'readonly', fullName: 'Rita Reader' });
    expect(principal.workspace.slug).toBe('acme');

    expect((await cli('user', 'revoke', '--id', user.json.userId)).code).toBe(0);
    await expect(authenticate(`Bearer ${key.json.apiKey}`)).rejects.toMatchObject({ extensions: { code: 'delegated_user_access_revoked' } });

    const full = await cli('key', 'create', '--workspace', 'acme');
    expect((await cli('key', 'revoke', '--id', full.json.credentialId)).code).toBe(0);
    await expect(authenticate(`Bearer ${full.json.apiKey}`)).rejects.toMatchObject({ extensions: { code: 'credential_revoked' } });
    const other = await cli('key', 'create', '--workspace', 'acme', '--expires-at', '2020-01-01T00:00:00Z');
    await expect(authenticate(`Bearer ${other.json.apiKey}`)).rejects.toMatchObject({ extensions: { code: 'credential_expired' } });
    expect((await cli('key', 'delete', '--id', other.json.credentialId)).code).toBe(0);
    await expect(authenticate(`Bearer ${other.json.apiKey}`)).rejects.toMatchObject({ extensions: { code: 'credential_not_found' } });
  });

  it('sets API access and credits', async () => {
    await cli('workspace', 'create', '--slug', 'hold', '--api-access', 'none');
    const key = await cli('key', 'create', '--workspace', 'hold');
    const authenticate = createAuthenticator(db.prisma);
    await expect(authenticate(`Bearer ${key.json.apiKey}`)).rejects.toMatchObject({ extensions: { code: 'workspace_public_api_disabled' } });
    expect((await cli('workspace', 'set-access', '--workspace', 'hold', '--api-access', 'suspended')).code).toBe(0);
    await expect(authenticate(`Bearer ${key.json.apiKey}`)).rejects.toMatchObject({ extensions: { code: 'workspace_public_api_suspended' } });
    await cli('workspace', 'set-access', '--workspace', 'hold', '--api-access', 'enabled');
    expect((await authenticate(`Bearer ${key.json.apiKey}`)).workspace.slug).toBe('hold');

    const credits = await cli('credits', 'set', '--workspace', 'hold', '--recurring-limit', '300', '--recurring-used', '20', '--topup', '50');
    expect(credits.json).toMatchObject({ recurring: { limit: 300, used: 20 }, topup: { balance: 50 } });
    const account = await db.prisma.creditAccount.findFirstOrThrow({ where: { workspace: { slug: 'hold' } } });
    expect(account).toMatchObject({ recurringLimit: 300, recurringUsed: 20, topupBalance: 50 });
    const ledger = await db.prisma.creditLedgerEntry.findMany({ where: { workspaceId: account.workspaceId }, orderBy: { id: 'asc' } });
    expect(ledger.map((entry) => [entry.pool, entry.amount])).toEqual([['recurring', 10000], ['recurring', -9700], ['recurring', -20], ['topup', 50]]);
  });

  it('answers bad input with one JSON error object, exit 2 when refused and 1 when failed, changing nothing', async () => {
    const before = await db.prisma.workspace.count();
    const cases: [string[], string, number][] = [
      [['bogus'], 'validation_error', 2],
      [['workspace'], 'validation_error', 2],
      [['workspace', 'create'], 'validation_error', 2],
      [['workspace', 'create', '--slug', 'Bad Slug!'], 'validation_error', 2],
      [['workspace', 'create', '--slug', 'x', '--api-access', 'maybe'], 'validation_error', 2],
      [['workspace', 'create', '--slug', 'y', '--credits', '-3'], 'validation_error', 2],
      [['workspace', 'create', '--slug', 'z', '--unknown-flag', '1'], 'validation_error', 2],
      [['key', 'create', '--workspace', 'nope'], 'not_found', 1],
      [['key', 'revoke', '--id', 'not-a-uuid'], 'validation_error', 2],
      [['key', 'delete', '--id', '00000000-0000-4000-8000-000000000000'], 'not_found', 1],
      [['user', 'create', '--workspace', 'acme', '--name', 'X', '--role', 'god'], 'validation_error', 2],
      [['seed', '--scale', 'galactic'], 'validation_error', 2],
      [['import', 'meta-ads', '/no/such/folder'], 'validation_error', 2],
    ];
    const results = await Promise.all(cases.map(([args]) => cli(...args)));
    for (const [index, result] of results.entries()) {
      const [args, code, exit] = cases[index];
      expect(result.code, args.join(' ')).toBe(exit);
      expect(result.stdout.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(result.json, args.join(' ')).toEqual({ error: { code, message: expect.any(String) } });
    }
    // An unknown command also prints the usage, on stderr.
    expect(results[0].stderr).toMatch(/^usage: .*\n[\s\S]*workspace create --slug S/);
    expect(results[1].json.error.message).toMatch(/one of workspace create, workspace set-access/);
    const conflict = await cli('workspace', 'create', '--slug', 'acme');
    expect(conflict).toMatchObject({ code: 1, json: { error: { code: 'conflict' } } });
    expect(await db.prisma.workspace.count()).toBe(before);
  });

  once('prints its usage for --help, -h and help, and a command\'s own for <command> --help, and refuses a bad command line, without a database', async () => {
    const commands = [
      'workspace create', 'workspace set-access', 'user create', 'user revoke', 'key create', 'key revoke', 'key delete', 'credits set',
      'seed', 'demo tick', 'import', 'sync run', 'sync status', 'sync schedule list', 'migrate',
    ];
    // An address nothing answers at: help must not need the database.
    const nowhere = { DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/none' };
    const [help, short, word] = await Promise.all([['--help'], ['-h'], ['help']].map((args) => harness.run(nowhere, args)));
    for (const result of [help, short, word]) {
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(help.stdout);
    }
    for (const command of commands) expect(help.stdout).toContain(`\n  ${command}`);
    expect(help.stdout).toMatch(/exit codes: 0 done; 1 failed .*\n.*2 refused/);

    const own = await Promise.all(commands.map((command) => harness.run(nowhere, [...command.split(' ').slice(0, 2), '--help'])));
    for (const [index, result] of own.entries()) {
      expect(result.code, commands[index]).toBe(0);
      expect(result.stdout, commands[index]).toMatch(new RegExp(`^usage: ${commands[index]}`));
    }
    const key = own[commands.indexOf('key create')].stdout;
    for (const option of ['--workspace', '--name', '--description', '--access', '--user', '--expires-at']) expect(key).toContain(option);
    const group = await harness.run(nowhere, ['sync', '--help']);
    expect(group.stdout.match(/^usage: sync /gm)).toHaveLength(3);
    expect(await harness.run(nowhere, ['workspace', 'create', '--slug', 'w'])).toMatchObject({ code: 1, json: { error: { code: 'internal_error' } } });
    // A refused command line never opens the database (nor creates an embedded one).
    for (const args of [['workspace', 'create'], ['key', 'revoke', '--id', 'x'], ['seed', '--scale', 'galactic'], ['import', 'meta-ads', '/no/such/file'], ['sync', 'run', 'nowhere']]) {
      expect(await harness.run(nowhere, args), args.join(' ')).toMatchObject({ code: 2, json: { error: { code: 'validation_error' } } });
    }
  });

  once('seeds the tiny market once and refuses to seed over it without --replace', async () => {
    const seeded = await cli('seed', '--scale', 'tiny', '--seed', '7');
    expect(seeded.code).toBe(0);
    expect(seeded.json).toMatchObject({ scale: 'tiny', seed: 7, counts: { ads: expect.any(Number) } });
    expect(await db.prisma.ad.count()).toBe(seeded.json.counts.ads);
    expect(seeded.json.counts.ads).toBeGreaterThan(2000);
    expect((await cli('seed')).json.error.code).toBe('conflict');
  });
});

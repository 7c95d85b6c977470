import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { acrossWorkspaces, workspaceFilterRefusal } from '../../src/db/workspace-check.js';
import type { PrismaClient } from '../../src/generated/prisma/client.js';
import { inWorkspace, refuseWorkspaceTables, scopeToWorkspace, WORKSPACE_MODELS, WORKSPACE_TABLES } from '../../src/schema/shared/workspace.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { adsScenario } from '../ads/scenario.js';

// The one workspace filter (src/schema/shared/workspace.ts): fail closed.

// boards/service/tree.ts as it would be with an unfiltered statement added to it, when `added.on`.
const added = vi.hoisted(() => ({ on: false }));
vi.mock('../../src/schema/boards/service/tree.js', async (importOriginal) => {
  const tree = await importOriginal<typeof import('../../src/schema/boards/service/tree.js')>();
  return {
    ...tree,
    subtreeIds: async (db: PrismaClient, workspaceId: string, boardId: string) => {
      if (added.on) await db.$queryRaw`SELECT "id" FROM "boards" WHERE "parentBoardId" = ${boardId}`;
      return tree.subtreeIds(db, workspaceId, boardId);
    },
  };
});

let t: TestApp;
let a: { apiKey: string; workspaceId: string };
let b: { apiKey: string; workspaceId: string };
beforeAll(async () => {
  t = await createTestApp(adsScenario);
  a = await t.newKey();
  b = await t.newKey();
});
afterAll(() => t?.close());

const delegate = (client: PrismaClient, model: string) =>
  (client as unknown as Record<string, { findMany(args?: object): Promise<unknown[]>; count(args?: object): Promise<number> }>)[model[0].toLowerCase() + model.slice(1)];

describe('the request client refuses workspace tables', () => {
  it('throws for every workspace model, for reads and writes alike', async () => {
    const guarded = refuseWorkspaceTables(t.db.prisma);
    for (const model of WORKSPACE_MODELS) {
      await expect(delegate(guarded, model).findMany(), model).rejects.toThrow(/outside the workspace filter/);
      await expect(delegate(guarded, model).count(), model).rejects.toThrow(/outside the workspace filter/);
    }
    await expect(guarded.board.create({ data: { id: 'x', workspaceId: a.workspaceId, name: 'x' } })).rejects.toThrow(/outside the workspace filter/);
    expect(await guarded.ad.count()).toBeGreaterThan(0); // market tables pass
  });
});

describe('the scoped client', () => {
  it("sees and changes only its own workspace's rows", async () => {
    const mine = scopeToWorkspace(t.db.prisma, a.workspaceId);
    const theirs = scopeToWorkspace(t.db.prisma, b.workspaceId);
    // A create takes the scope's workspace, whatever the data says.
    await mine.board.create({ data: { id: 'board-a', workspaceId: b.workspaceId, name: 'Mine' } });
    await theirs.board.create({ data: { id: 'board-b', workspaceId: b.workspaceId, name: 'Theirs' } });
    expect((await t.db.prisma.board.findUniqueOrThrow({ where: { id: 'board-a' } })).workspaceId).toBe(a.workspaceId);

    expect((await mine.board.findMany()).map((board) => board.id)).toEqual(['board-a']);
    expect(await mine.board.findUnique({ where: { id: 'board-b' } })).toBeNull();
    expect(await mine.board.count({ where: { name: { startsWith: 'T' } } })).toBe(0);
    await expect(mine.board.update({ where: { id: 'board-b' }, data: { name: 'Stolen' } })).rejects.toMatchObject({ code: 'P2025' });
    expect((await mine.board.updateMany({ data: { description: 'touched' } })).count).toBe(1);
    await expect(mine.board.delete({ where: { id: 'board-b' } })).rejects.toMatchObject({ code: 'P2025' });
    expect((await mine.board.deleteMany({ where: { id: 'board-b' } })).count).toBe(0);
    // board-b is not this workspace's: the upsert does not find it, so it creates, in its own workspace.
    const upserted = await mine.board.upsert({ where: { id: 'board-b' }, create: { id: 'board-c', workspaceId: b.workspaceId, name: 'New' }, update: { name: 'Stolen' } });
    expect(upserted).toMatchObject({ id: 'board-c', workspaceId: a.workspaceId, name: 'New' });

    const board = await t.db.prisma.board.findUniqueOrThrow({ where: { id: 'board-b' } });
    expect(board).toMatchObject({ name: 'Theirs', description: null, workspaceId: b.workspaceId });
  });
});

describe('raw SQL on workspace tables: every statement states the filter, or is refused', () => {
  it('refuses an unfiltered statement on every raw path of the request, and runs the filtered one', async () => {
    const refused = /Refused by the workspace filter: "boards" without "boards"\."workspaceId" = \$n::uuid/;
    await expect(t.db.prisma.$queryRaw`SELECT * FROM "boards"`).rejects.toThrow(refused);
    await expect(t.db.pool.query('SELECT * FROM "boards"')).rejects.toThrow(refused);
    await expect(t.db.prisma.$transaction(async (tx) => tx.$queryRaw`SELECT * FROM "boards"`)).rejects.toThrow(refused);
    await expect(t.db.prisma.$executeRaw`UPDATE "boards" SET "name" = 'x'`).rejects.toThrow(/Refused by the workspace filter/);
    const mine = await t.db.prisma.$queryRaw<{ id: string }[]>`SELECT b."id" FROM "boards" b WHERE ${inWorkspace('b', a.workspaceId)} ORDER BY b."id"`;
    expect(mine.map((row) => row.id)).toEqual(['board-a', 'board-c']);
  });

  it('fails a route whose file gained an unfiltered statement, and changes nothing; the file as it is answers', async () => {
    const board = (await t.rest('POST', '/boards', { key: a.apiKey, body: { name: 'Tree' } })).body.data;
    added.on = true;
    try {
      const res = await t.rest('DELETE', `/boards/${board.id}`, { key: a.apiKey });
      expect(res.status).toBe(500);
      expect(res.body.error.code).toBe('internal_error');
      expect(t.logs.some((line) => line.err?.message.includes('Refused by the workspace filter'))).toBe(true);
    } finally {
      added.on = false;
    }
    expect((await t.db.prisma.board.findUniqueOrThrow({ where: { id: board.id } })).archivedAt).toBeNull();
    const res = await t.rest('DELETE', `/boards/${board.id}`, { key: a.apiKey });
    expect(res.status).toBe(200);
    expect(res.body.data.archivedAt).not.toBeNull();
  });

  it('wants the condition on each mention of a workspace table, under its own alias', () => {
    const passes = [
      'SELECT * FROM "boards" b WHERE b."workspaceId" = $1::uuid',
      'SELECT count(*) FROM "board_items" WHERE "workspaceId" = $1',
      'SELECT * FROM boards AS b WHERE b."workspaceId" = $1::uuid',
      'SELECT c."id" FROM "boards" b JOIN "boards" c ON c."parentBoardId" = b."id" WHERE b."workspaceId" = $1::uuid AND c."workspaceId" = $2::uuid',
      'INSERT INTO "image_searches" ("id", "workspaceId") VALUES ($1, $2)',
      'DELETE FROM "image_searches" s WHERE s."workspaceId" = $1::uuid',
      'SELECT * FROM "public"."boards" WHERE "public"."boards"."id" = $1', // Prisma's own: its client guards see to it
      `${acrossWorkspaces('a migration')} UPDATE "boards" SET "name" = 'x'`,
      'SELECT * FROM "ads" a WHERE a."id" = $1',
    ];
    const refused = [
      'SELECT * FROM "boards"',
      'SELECT * FROM boards',
      'SELECT * FROM public.boards',
      'SELECT * FROM "boards" b WHERE b."id" = $1',
      'SELECT * FROM "boards" b WHERE b."workspaceId" = b."id"',
      'SELECT * FROM "ads" a, "boards" b WHERE b."id" = a."id"',
      'SELECT c."id" FROM "boards" b JOIN "boards" c ON c."parentBoardId" = b."id" WHERE b."workspaceId" = $1::uuid',
      'SELECT * FROM "boards" b WHERE b."workspaceId" = $1::uuid UNION ALL SELECT * FROM "boards" b WHERE b."id" = $2',
      'SELECT count(*) FROM "board_items" i JOIN "boards" b ON b."id" = i."boardId" WHERE b."workspaceId" = $1::uuid',
      'UPDATE "boards" b SET "name" = $1 WHERE b."id" = $2',
      'INSERT INTO "image_searches" ("id", "kind") VALUES ($1, $2)',
      'INSERT INTO "boards" ("id", "workspaceId") VALUES ($1, $2) ON CONFLICT ("id") DO UPDATE SET "name" = $3',
      'WITH x AS (DELETE FROM "audit_events" RETURNING 1) SELECT count(*) FROM x',
      'TRUNCATE "ads", "ad_shares" CASCADE',
      '/* across workspaces */ SELECT * FROM "boards"',
    ];
    expect(passes.filter((text) => workspaceFilterRefusal(text) !== null)).toEqual([]);
    expect(refused.filter((text) => workspaceFilterRefusal(text) === null)).toEqual([]);
    expect(() => acrossWorkspaces('*/ SELECT')).toThrow();
  });

  it("covers every table of workspace data, and the project's SQL never writes one as Prisma does", async () => {
    // Tables with a workspace column that are not workspace data: the workspace's identity, access and credits.
    const identityAndCredits = ['credentials', 'credit_accounts', 'credit_ledger', 'credit_reservations', 'idempotency_keys', 'usage_records', 'workspace_api_access', 'workspace_users'];
    // Market events are market data; the few that belong to one workspace (workspaceId set) are shown to it alone by
    // the events service's one relevance rule (test/events/feed.test.ts, live.test.ts). workspace_interests is a view
    // over workspace tables, read only across workspaces by the dispatcher's consumers and by the feed per workspace.
    identityAndCredits.push('market_events', 'workspace_interests');
    const { rows } = await t.db.pool.query<{ table: string }>(
      `SELECT table_name AS "table" FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'workspaceId'`);
    expect(rows.map((row) => row.table).filter((table) => !identityAndCredits.includes(table)).sort()).toEqual([...WORKSPACE_TABLES].sort());
    for (const table of WORKSPACE_TABLES) expect(workspaceFilterRefusal(`SELECT 1 FROM "${table}"`), table).not.toBeNull();
    const root = path.resolve(import.meta.dirname, '../../src');
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const full = path.join(dir, name);
        if (statSync(full).isDirectory()) {
          if (name !== 'generated') walk(full);
        } else if (name.endsWith('.ts')) files.push(full);
      }
    };
    walk(root);
    const prismaForm = new RegExp(`"public"\\."(${[...WORKSPACE_TABLES].join('|')})"`);
    expect(files.filter((file) => prismaForm.test(readFileSync(file, 'utf8'))).map((file) => path.relative(root, file))).toEqual([]);
  });
});

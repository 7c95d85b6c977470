import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '../../src/generated/prisma/client.js';
import { refuseWorkspaceTables, scopeToWorkspace, WORKSPACE_MODELS, WORKSPACE_TABLES } from '../../src/schema/shared/workspace.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { adsScenario } from '../ads/scenario.js';

// The one workspace filter (src/schema/shared/workspace.ts): fail closed.

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

describe('raw SQL on workspace tables', () => {
  it('states the workspace filter in every file that reads them', () => {
    const root = path.resolve(import.meta.dirname, '../../src');
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const full = path.join(dir, name);
        if (statSync(full).isDirectory()) {
          if (name !== 'generated' && name !== 'data') walk(full);
        } else if (name.endsWith('.ts')) files.push(full);
      }
    };
    walk(root);
    const tables = [...WORKSPACE_TABLES].join('|');
    const rawRead = new RegExp(`(FROM|JOIN|UPDATE|INTO)\\s+"(${tables})"`, 'i');
    const offenders = files.filter((file) => {
      if (file.endsWith(path.join('shared', 'workspace.ts'))) return false;
      const text = readFileSync(file, 'utf8');
      return rawRead.test(text) && !text.includes('inWorkspace(');
    });
    expect(offenders.map((file) => path.relative(root, file))).toEqual([]);
  });
});

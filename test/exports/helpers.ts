import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import type { TestApp } from '../support/app.js';

/** A fresh EXPORT_DIR for a test file (set before the export service reads it). */
export async function exportDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'mi-exports-'));
  process.env.EXPORT_DIR = dir;
  return dir;
}

export const QUIET = { info() {}, warn() {}, error() {} };

/** Polls GET /v1/exports/{id} until the export leaves queued and running. */
export async function settled(t: TestApp, key: string, id: string): Promise<Record<string, any>> {
  for (let i = 0; i < 600; i++) {
    const res = await t.rest('GET', `/exports/${id}`, { key });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    if (!['queued', 'running'].includes(res.body.data.state)) return res.body.data;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`export ${id} did not finish`);
}

/** Every row of a list route, walked page by page to the end (page, offset or cursor style). */
export async function walk(t: TestApp, key: string, method: 'GET' | 'POST', route: string, params: Record<string, unknown>, limit = 100): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  let page = 1;
  let cursor: string | null = null;
  for (;;) {
    const paging: Record<string, unknown> = { limit, ...(cursor ? { cursor } : {}) };
    let body: any;
    const style = (b: any) => (b.pagination && 'nextCursor' in b.pagination ? 'cursor' : b.pagination && 'offset' in b.pagination ? 'offset' : 'page');
    const send = async (extra: Record<string, unknown>) => {
      const all = { ...params, ...paging, ...extra };
      if (method === 'POST') return t.rest('POST', route, { key, body: all });
      const query = new URLSearchParams(Object.entries(all).map(([k, v]) => [k, String(v)]));
      return t.rest('GET', `${route}?${query}`, { key });
    };
    let res = await send(page === 1 || cursor ? {} : { page });
    body = res.body;
    expect(res.status, JSON.stringify(body)).toBe(200);
    if (page > 1 && style(body) === 'offset') {
      res = await send({ offset: (page - 1) * limit });
      body = res.body;
    }
    rows.push(...body.data);
    if (style(body) === 'cursor') {
      cursor = body.pagination.nextCursor;
      if (!cursor) return rows;
    } else if (body.data.length < limit) return rows;
    page++;
  }
}

/**
 * An export's rows are the pages walked after it, except that an ad's `daysRunning` is counted at each read's own time
 * (the export's snapshot, a page's call): between them it may have turned over by one day.
 */
export function expectPages(rows: Record<string, unknown>[], pages: Record<string, unknown>[], label?: string) {
  const without = (list: Record<string, unknown>[]) => list.map(({ daysRunning: _days, ...row }) => row);
  expect(without(rows), label).toEqual(without(pages));
  const turned = rows.map((row, i) => Number(pages[i]!.daysRunning ?? 0) - Number(row.daysRunning ?? 0));
  expect(turned.filter((days) => days !== 0 && days !== 1), label).toEqual([]);
}

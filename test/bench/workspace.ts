// The bench workspace's own data, made through the project's REST API (the running server, as a client would):
// brandtrackers for the workspace analytics scenarios, a board with items for the boards scenario. The bench makes
// a new workspace per run, so this runs once per run and scale, before the scenarios are sent.

type Json = Record<string, any>;

async function call(baseUrl: string, apiKey: string, method: string, path: string, body: Json): Promise<Json> {
  const res = await fetch(`${baseUrl}/v1${path}`, { method, body: JSON.stringify(body), headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' } });
  const answer = (await res.json()) as Json;
  if (res.status >= 300) throw new Error(`bench workspace setup: ${method} ${path} answered ${res.status} ${JSON.stringify(answer).slice(0, 300)}`);
  return answer;
}

/** Runs `work` over `items`, `width` at a time (the server's pool is small; this is setup, not load). */
async function inTurn<T>(items: T[], width: number, work: (item: T) => Promise<unknown>) {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map(work));
}

export type BenchWorkspace = { boardId: string; trackedCount: number; boardItems: number };

/** Tracks the given Facebook pages and saves the given ads on a new board; returns the board's id. */
export async function prepareWorkspace(baseUrl: string, apiKey: string, pageIds: string[], adIds: string[]): Promise<BenchWorkspace> {
  await inTurn(pageIds, 4, (facebookPageId) => call(baseUrl, apiKey, 'POST', '/brandtrackers', { facebookPageId }));
  const board = await call(baseUrl, apiKey, 'POST', '/boards', { name: 'Bench board', description: 'Saved by the bench' });
  const boardId = board.data.id as string;
  await inTurn(adIds, 4, (targetId) => call(baseUrl, apiKey, 'POST', `/boards/${boardId}/items`, { type: 'ad', targetId }));
  return { boardId, trackedCount: pageIds.length, boardItems: adIds.length };
}

/** Sends a cursor-paged POST query until the page `page` and returns the cursor that asks for it. */
export async function cursorOfPage(baseUrl: string, apiKey: string, path: string, body: Json, page: number): Promise<string> {
  let cursor: string | null = null;
  for (let n = 1; n < page; n++) {
    const answer = await call(baseUrl, apiKey, 'POST', path, cursor ? { ...body, cursor } : body);
    cursor = answer.pagination.nextCursor as string | null;
    if (!cursor) throw new Error(`bench setup: ${path} has fewer than ${page} pages (${n} pages)`);
  }
  return cursor!;
}

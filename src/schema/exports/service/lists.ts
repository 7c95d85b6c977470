import type { GraphQLError } from 'graphql';
import type { Principal } from '../../../auth/principal.js';
import { validationError } from '../../../errors.js';
import { exportRead, ExportRefused, withExportRead, type ExportRead } from '../../shared/list.js';
import {
  asParamsError, listArguments, ListRunFailed, marketListAt, runContext, runPage, runRows, runPrincipal, type ListRoute, type RunServices,
} from '../../shared/market-lists.js';
import { eventCount, readPosition, type EventFilter } from '../../events/service.js';
import type { Context } from '../../../context.js';
import { priceOf } from '../../../metering/prices.js';
import { RowChunk } from './writers.js';

// An export's list: the route named by its method and path as called, its arguments read from the params as REST reads
// them, counted or read whole under the list engine's export mode (src/schema/shared/list.ts), as the workspace. The
// event feed (GET /v1/events, a feed: its own engine) is read by its own pages, one after another, each after the last
// one's nextCursor: one statement a page, a keyset on the events' order, in the export's snapshot.

export type ExportList = { list: ListRoute; values: Record<string, unknown>; pricePerRow: number };

/** The list and arguments of `{ method, path, params }`, or the route's own refusal (`path`, `params.<name>`). */
export async function exportList(method: string, path: string, params: Record<string, unknown>): Promise<ExportList> {
  const { list, pathParams } = await marketListAt(method, path);
  const values = { ...listArguments(list, params, 'an export', pathParams), ...pathParams };
  const price = priceOf(list.route.field);
  // A list priced per row costs one credit a row, as its pages do; a free list is free.
  return { list, values, pricePerRow: price?.kind === 'perRow' ? 1 : 0 };
}

/**
 * The route's refusal as the export's: its parameters named `params.<name>`; an engine that cannot export, named `path`
 * (or the parameter that makes it unable to: `params.sortBy` for a relevance-ranked search).
 */
function refusal(error: unknown, list: ListRoute): unknown {
  if (error instanceof ExportRefused) {
    return validationError([{ argument: error.argument ? `params.${error.argument}` : 'path', expected: [`${list.name} cannot be exported: ${error.message}`] }]);
  }
  if (error instanceof ListRunFailed && error.failure.kind === 'refused') {
    const refused: GraphQLError = error.failure.error;
    return refused.extensions?.code === 'validation_error' ? asParamsError(refused) : refused;
  }
  return error;
}

/**
 * Runs the list once under `state` (a count, or the next chunk) in the services given: the chunk's rows as REST shows
 * them. A chunk is read in bulk where the list can (its items' NDJSON text written by one statement: ExportRows,
 * shared/list.ts), else through the route's resolvers.
 */
export async function readList(target: ExportList, services: RunServices, workspace: Principal['workspace'], state: ExportRead, requestId: string): Promise<RowChunk> {
  const context = runContext(services, runPrincipal(workspace), requestId);
  if (target.list.engine === 'feed') {
    try {
      return await readFeed(target, context, services.pool, workspace.id, state);
    } catch (error) {
      throw refusal(error, target.list);
    }
  }
  // The items of the route's whole REST selection (runRows), their media URLs on the export's base URL.
  state.bulk ??= { baseUrl: services.publicBaseUrl };
  state.lines = null;
  try {
    const rows = await withExportRead(state, () => runRows(target.list, target.values, context));
    // Set by the run (a bulk read), which TypeScript does not see.
    const lines = state.lines as ExportRead['lines'];
    return lines ? RowChunk.ofLines(lines.text, lines.count) : RowChunk.ofRows(rows);
  } catch (error) {
    const original = (error as { originalError?: unknown }).originalError;
    throw refusal(original instanceof ExportRefused ? original : error, target.list);
  }
}

/** The event feed's largest page: an export reads its pages of this size. */
const FEED_PAGE = 100;

/**
 * The event feed read as an export (ExportRead's modes, `cursor` holding the last page's nextCursor): `count` runs one
 * page (the route's own checks: its filters, a brandtracker of another workspace, an unknown `after`) and counts the
 * events after the position given; `rows` reads pages of FEED_PAGE after the cursor until the chunk is full or the
 * feed ends.
 */
async function readFeed(target: ExportList, context: Context, db: RunServices['pool'], workspaceId: string, state: ExportRead): Promise<RowChunk> {
  if (state.mode === 'count') {
    await runPage(target.list, { ...target.values, limit: 1 }, context);
    const after = typeof target.values.after === 'string' ? readPosition(target.values.after) : null;
    const order = target.values.order === 'asc' ? 'asc' : 'desc';
    state.total = await eventCount(db, workspaceId, target.values as EventFilter, after, order);
    state.done = true;
    return RowChunk.ofRows([]);
  }
  const rows: Record<string, unknown>[] = [];
  while (!state.done && rows.length < state.chunk) {
    const page = await runPage(target.list, { ...target.values, limit: FEED_PAGE, ...(state.cursor ? { after: state.cursor } : {}) }, context);
    rows.push(...page.data);
    const next = page.pagination.nextCursor;
    if (typeof next === 'string' && next) state.cursor = next;
    else state.done = true;
  }
  return RowChunk.ofRows(rows);
}

/** How many rows the list has now (in the services' snapshot). */
export async function countList(target: ExportList, services: RunServices, workspace: Principal['workspace'], requestId: string): Promise<number> {
  const state = exportRead('count');
  await readList(target, services, workspace, state, requestId);
  return state.total ?? 0;
}

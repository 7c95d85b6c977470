// Moved to list.ts, the list engine (issue #34); this re-export goes when its last import does.
import { findIds, inIdOrder, pageOf, type IdPage, type InlineRows, type ListQuery, type PageRequest, type SqlSource } from './list.js';
export { orderBySql, type OrderKey } from './list.js';

export type IdPageQuery = ListQuery & { limit: number; offset: number; scansAllMatches: boolean };

export function findIdPage<Row = never>(db: SqlSource, query: IdPageQuery, inline?: InlineRows<Row>): Promise<IdPage & { rows?: Row[] }> {
  return findIds(db, query, { limit: query.limit, offset: query.offset }, inline);
}

export async function loadIdPage<T extends { id: string }>(found: IdPage, page: PageRequest, load: (ids: string[]) => Promise<T[]>) {
  return pageOf(inIdOrder(found.ids, found.ids.length ? await load(found.ids) : []), page, found);
}

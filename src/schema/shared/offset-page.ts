// Moved to list.ts, the list engine (issue #34); this re-export goes when its last import does.
import { inIdOrder, pageOf, type IdPage, type OffsetPageOf, type OffsetRequest } from './list.js';
export { offsetListRef } from './list.js';

export type OffsetRowPage<T = { id: string }> = OffsetPageOf<T>;

export async function loadOffsetPage<T extends { id: string }>(found: IdPage, request: OffsetRequest, load: (ids: string[]) => Promise<T[]>): Promise<OffsetRowPage<T>> {
  return pageOf(inIdOrder(found.ids, found.ids.length ? await load(found.ids) : []), request, found);
}

// Moved to list.ts, the list engine (issue #34); this re-export goes when its last import does.
export {
  ListMetaRef,
  OffsetPaginationRef,
  PagePaginationRef,
  TOTAL_RELATION_DESCRIPTION,
  listMeta,
  offsetArgs,
  offsetOf,
  offsetPagination,
  pageArgs,
  pageListRef,
  pagePagination,
  pageRequest,
  type IdPage,
  type ListMeta,
  type OffsetPagination,
  type OffsetRequest,
  type PagePagination,
  type PageRequest,
  type RowPage,
} from './list.js';
import { inIdOrder, pageOf, type IdPage, type PageRequest } from './list.js';

/** The loaded rows in the order the SQL found them, with the page's pagination. */
export function pageInIdOrder<T extends { id: string }>(found: IdPage, rows: readonly T[], page: PageRequest) {
  return pageOf(inIdOrder(found.ids, rows), page, found);
}

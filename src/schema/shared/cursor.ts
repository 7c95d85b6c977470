// Moved to list.ts, the list engine (issue #34); this re-export goes when its last import does.
export {
  CursorPaginationRef,
  MAX_CURSOR_LENGTH,
  TotalRelationEnum,
  cursorArgs,
  cursorListRef,
  decodeCursor,
  encodeCursor,
  findKeysetPage,
  queryDigest,
  type CursorPagination,
  type CursorPosition,
  type InlineRows,
  type KeysetKey,
  type TotalRelation,
} from './list.js';

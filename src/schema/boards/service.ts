// The boards domain's public face and the only home of its SQL (test/unit/sql-layout.test.ts): boards and their
// trees (service/boards.ts, service/tree.ts), the items of a board (service/items.ts), the one saving mechanism every
// saved item goes through (service/store.ts), what an item saves (service/targets.ts) and share links
// (service/share.ts). Other domains (favorites) and the transports import boards only here and in types.ts
// (test/unit/domain-boundaries.test.ts).

export { actorOf, scopeKey, visibleBoards, type Actor, type ScopeKey } from './access.js';
export {
  boardArchive,
  boardCreate,
  boardDetail,
  boardMove,
  boardPage,
  boardRestore,
  boardUpdate,
  findBoard,
  moveBoard,
  type BoardQuery,
} from './service/boards.js';
export { boardItemAdd, boardItemDetail, boardItemPage, boardItemRemove } from './service/items.js';
export { boardShare, boardSharePath, boardShareRevoke, shareBoard, sharedBoardPage, type SharedBoardPage } from './service/share.js';
export { moveItem, removeItem, saveItem, saveOrMoveItem, type Saved } from './service/store.js';
export { findTarget, targetIdOf, type Target } from './service/targets.js';
export { subtreeIds } from './service/tree.js';

// Moved to list.ts, the list engine (issue #34); this re-export goes when its last import does.
export { orderBySql, type OrderKey } from './list.js';

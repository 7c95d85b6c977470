// Moved to list.ts, the list engine (issue #34); this re-export goes when its last import does.
export { boundedTotal, searchBounds } from './list.js';

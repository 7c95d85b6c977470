// Moved to list.ts, the list engine (issue #34); this re-export goes when its last import does.
export { searchTerms, termsOf, tsQuery, type TextSearch } from './list.js';

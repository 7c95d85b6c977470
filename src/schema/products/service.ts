// The products domain's public face: what other domains and the transports use of it (besides types.ts), and all they may
// import of it (test/unit/domain-boundaries.test.ts). It re-exports for now; its SQL moves here in #34's next steps.

export { findProducts as productsByIds } from './load.js';
export { DEFAULT_CPM, hasEuAccess, withView } from './figures.js';

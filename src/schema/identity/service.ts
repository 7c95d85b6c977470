// The identity domain's public face: what other domains and the transports use of it (besides types.ts), and all they may
// import of it (test/unit/domain-boundaries.test.ts). Identity holds no SQL: the principal comes from src/auth, the
// credit balance from src/metering.

export { Usage } from './usage.js';

// The brandtrackers domain's public face: what other domains and the transports use of it (besides types.ts), and all they may
// import of it (test/unit/domain-boundaries.test.ts). It re-exports for now; its SQL moves here in #34's next steps.

export { brandtrackerId, facebookPageId, folderId } from './args.js';

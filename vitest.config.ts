import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

// One graphql instance: Node loads graphql's CommonJS build for every dependency, so the tests must too
// (vite would otherwise pick its .mjs build for our files, and graphql rejects types from another realm).
const graphqlMain = createRequire(import.meta.url).resolve('graphql');

// The suite runs on the embedded PGlite always; with TEST_DATABASE_URL set, the database-backed tests
// run a second time against that PostgreSQL (a fresh database per test file).
const postgres = process.env.TEST_DATABASE_URL;

// As under `npm start` (package.json): glibc keeps two malloc arenas, not eight per core. The test workers are forked
// from this process and inherit it; libvips' decode threads would otherwise each keep the memory they freed, and the
// hostile-image tests, which bound the worker's RSS, would measure glibc's caches instead of the decoder.
process.env.MALLOC_ARENA_MAX ??= '2';

// One timeout policy, sized for a cold 2-core machine running two files at a time: three to four times the slowest test
// (~30 s) and the slowest beforeAll (a seeded market, ~60 s) of a full run there. Test files keep these; a file sets
// its own only for a test that can be asked to do more, and says why.
//
// A worker process runs its files one after another and imports the modules they share once (isolate: false): importing
// the server (~4–5 s of CPU through vite's module runner) and a first PGlite start were most of a small file's time, once
// per file. What a file changes of the process (environment, module mocks) is put back after it, and the schema is
// imported whole before a file's own imports, so its types keep the server's order (test/support/per-file.ts).
const shared = {
  testTimeout: 120_000,
  hookTimeout: 180_000,
  fileParallelism: true,
  maxWorkers: 2,
  isolate: false,
  setupFiles: ['test/support/per-file.ts'],
};

// Once per project: the migrated template every test file's database is copied from (test/global-setup.ts).
const globalSetup = ['test/global-setup.ts'];

export default defineConfig({
  resolve: { alias: [{ find: /^graphql$/, replacement: graphqlMain }] },
  test: {
    projects: [
      { extends: true, test: { ...shared, globalSetup, name: 'pglite', include: ['test/**/*.test.ts'], env: { TEST_DB: 'pglite' } } },
      ...(postgres
        ? [{ extends: true as const, test: { ...shared, globalSetup, name: 'postgres', include: ['test/**/*.test.ts'], exclude: ['**/node_modules/**', 'test/unit/**'], env: { TEST_DB: 'postgres' } } }]
        : []),
    ],
  },
});

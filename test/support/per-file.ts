import { readFileSync } from 'node:fs';
import path from 'node:path';
import SchemaBuilder from '@pothos/core';
import { afterAll, expect, vi } from 'vitest';

// Run before each test file (vitest.config.ts: setupFiles). A worker runs its files one after another in one process and
// imports the modules they share once (isolate: false), so what a file changes of the process is put back when it ends:
// - its environment variables (a file may set them at its top, or leave one set when a test fails before restoring it);
// - its module mocks: a file that mocks a module (vi.mock) imports every module anew, before its own imports, so that
//   the modules it reaches see the mock; after it, the mocks are dropped and the next file imports anew without them.
//   Our Pothos plugin registers itself with Pothos (a dependency, imported once per process) when its module is
//   evaluated: a second evaluation replaces the first, as Pothos allows for a module reload.
SchemaBuilder.allowPluginReRegistration = true;

const saved = { ...process.env };

const file = expect.getState().testPath;
/** The modules this file mocks, as vi.mock names them (a relative path made absolute from the file's folder). */
const mocked = file
  ? [...readFileSync(file, 'utf8').matchAll(/\bvi\.mock\(\s*(['"`])(.+?)\1/g)].map(([, , name]) => (name.startsWith('.') ? path.resolve(path.dirname(file), name) : name))
  : [];
if (mocked.length) vi.resetModules();
// The GraphQL schema's types are registered as their modules are first evaluated, and the committed schema, OpenAPI
// document and tool lists are printed in that order: the whole schema is imported first, as the server imports it,
// whatever part of it an earlier file of this worker imported alone (a file that mocks imports it itself, after its
// mocks).
else await import('../../src/schema/index.js');

// After the file's own afterAll hooks (vitest runs a file's after-hooks last registered first).
afterAll(async () => {
  // What vitest itself can put back: spies left on (a test that failed before restoring one), fake timers, stubs.
  vi.restoreAllMocks();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  // The process's live hub (events over SSE and WebSocket) is made by the first stream of a process, on that stream's
  // database and with the EVENTS_LIVE_CHECK_MS and REDIS_URL of then: each file starts without one. Imported here, so it
  // is the module instance this file's servers used (a file that mocks imports its modules anew).
  const { setLiveHub } = await import('../../src/schema/events/service.js');
  await setLiveHub(null)?.close();
  for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
  Object.assign(process.env, saved);
  if (mocked.length) {
    for (const name of mocked) vi.doUnmock(name);
    vi.resetModules();
  }
});

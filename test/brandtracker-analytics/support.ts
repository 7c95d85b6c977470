import { afterAll, beforeAll } from 'vitest';
import { BT_A, BT_B, PAGE_A, PAGE_B } from '../brandtrackers/scenario.js';
import { createTestApp, type HttpResult, type TestApp } from '../support/app.js';
import { graphqlData } from '../support/assertions.js';
import type { TestDatabase } from '../support/database.js';
import { statementsOf, statementsSettled } from '../support/statements.js';

// The scenario creates a brandtracker per page; a workspace tracks one by posting its page.
const PAGE_OF = { [BT_A]: PAGE_A, [BT_B]: PAGE_B } as const;

/**
 * A test app on `scenario` for this file: a workspace tracking `pages`, whose key the calls below use, and another
 * (`otherKey`) tracking none. Registers the file's beforeAll and afterAll, so call it at the top level of the file
 * and read the handle inside tests.
 */
export function useTrackingApp(scenario: (db: TestDatabase) => Promise<void>, { pages }: { pages: string[] }) {
  let app: TestApp | undefined;
  let key = '';
  let otherKey = '';
  const started = () => {
    if (!app) throw new Error('the test app starts in beforeAll');
    return app;
  };
  const track = (page: string) => started().rest('POST', '/brandtrackers', { key, body: { facebookPageId: page } });

  beforeAll(async () => {
    app = await createTestApp(scenario);
    ({ apiKey: key } = await app.newKey());
    ({ apiKey: otherKey } = await app.newKey());
    for (const page of pages) await track(page);
  });
  afterAll(() => app?.close());

  return {
    get t() {
      return started();
    },
    /** The tracking workspace's key. */
    get key() {
      return key;
    },
    get otherKey() {
      return otherKey;
    },
    /** GET below /v1 with the tracking workspace's key, or with `apiKey`. */
    get: (path: string, apiKey = key) => started().rest('GET', path, { key: apiKey }),
    /** The data of a GraphQL call with the tracking workspace's key, which must succeed. */
    graphql: (query: string, variables: Record<string, unknown> = {}) => graphqlData(started(), key, query, variables),
    /**
     * The statements `call` sends of its own (the key's left out), counted once what earlier requests fired and
     * forgot has settled, so that none of it lands in the count.
     */
    async statementsOf(call: () => Promise<HttpResult>) {
      await statementsSettled(started().db);
      return statementsOf(call);
    },
    /** Runs `check` while the workspace does not track `brandtrackerId`, then tracks it again for the tests after. */
    async untracked(brandtrackerId: keyof typeof PAGE_OF, check: () => Promise<void>) {
      await started().rest('DELETE', `/brandtrackers/${brandtrackerId}`, { key });
      try {
        await check();
      } finally {
        await track(PAGE_OF[brandtrackerId]);
      }
    },
  };
}

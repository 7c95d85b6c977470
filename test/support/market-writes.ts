import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { importData } from '../../src/data/import/index.js';
import { dispatchOnce, eventConsumers, type EventConsumer } from '../../src/events/index.js';
import type { MetaAdRecord } from '../sources/fakes/meta.js';

// Writes of market data as the tests of events make them: a page of Meta ads imported as a sync's page or a file
// would be, and the dispatch of what it recorded.

/** Imports `records` (an ads_archive page) through the meta-ads format as of `asOf`; the summary of the import. */
export async function importMetaRecords(pool: pg.Pool, records: MetaAdRecord[], asOf: Date) {
  const file = path.join(tmpdir(), `mi-meta-${randomUUID()}.json`);
  await writeFile(file, JSON.stringify({ data: records }));
  try {
    return await importData(pool, 'meta-ads', [file], { asOf });
  } finally {
    await rm(file, { force: true });
  }
}

/** Dispatches every waiting event to `consumers` (the server's by default); how many were dispatched. */
export async function dispatchAll(pool: pg.Pool, consumers: EventConsumer[] = eventConsumers()): Promise<number> {
  let total = 0;
  for (let n = -1; n !== 0; total += n) n = await dispatchOnce(pool, consumers);
  return total;
}

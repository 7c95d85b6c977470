import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { connect, type Db } from '../../src/db/client.js';
import { startEmbedded } from '../../src/db/embedded.js';
import { migrate } from '../../src/db/migrate.js';
import { seedMarket } from '../../src/data/market.js';
import { createPostgres, marketOptions, pgliteTemplate, postgresTemplate, templateContext, type MarketTemplate } from './templates.js';

export type TestDatabase = Db & { url: string; kind: 'pglite' | 'postgres'; dispose(): Promise<void> };
export type { MarketTemplate };

/**
 * A fresh, migrated database: in-memory PGlite, or a new database on TEST_DATABASE_URL's server (`migrated: false`:
 * left empty, for a test of a first start). With `market`, it holds that seeded market (`seedMarket`'s rows, as it
 * writes them). Under vitest both are copies of this run's templates (test/global-setup.ts, support/templates.ts).
 */
export async function createTestDatabase(options: { migrated?: boolean; market?: MarketTemplate } = {}): Promise<TestDatabase> {
  const migrated = options.migrated ?? true;
  if (options.market && !migrated) throw new Error('createTestDatabase: a market needs the migrated schema');
  const context = migrated ? await templateContext() : undefined;
  if (process.env.TEST_DB === 'postgres') {
    const adminUrl = process.env.TEST_DATABASE_URL;
    if (!adminUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
    const name = `mi_test_${process.pid}_${randomBytes(4).toString('hex')}`;
    await createPostgres(adminUrl, name, context ? await postgresTemplate(context, adminUrl, options.market) : undefined);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const db = connect(url.toString());
    if (migrated && !context) await migrate(db.pool);
    if (options.market && !context) await seedMarket(db.pool, marketOptions(options.market).options);
    return {
      ...db,
      url: url.toString(),
      kind: 'postgres',
      async dispose() {
        await db.close();
        const drop = new pg.Client({ connectionString: adminUrl });
        await drop.connect();
        await drop.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await drop.end();
      },
    };
  }
  const embedded = await startEmbedded(null, context ? { loadDataDir: await pgliteTemplate(context, options.market) } : {});
  const db = connect(embedded.url);
  if (migrated && !context) await migrate(db.pool);
  if (options.market && !context) await seedMarket(db.pool, marketOptions(options.market).options);
  return {
    ...db,
    url: embedded.url,
    kind: 'pglite',
    async dispose() {
      await db.close();
      await embedded.close();
    },
  };
}

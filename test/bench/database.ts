import pg from 'pg';
import { createKey, createWorkspace, setCredits } from '../../src/auth/admin.js';
import type { PrismaClient } from '../../src/generated/prisma/client.js';

// The benches' own databases: each bench works on a database of its own (named by its URL), dropped and made anew.

/** Drops the database `url` names (disconnecting its sessions) and creates it empty, through the server's `postgres`. */
export async function recreateDatabase(url: string): Promise<void> {
  const admin = new URL(url);
  const name = admin.pathname.slice(1);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
}

/** A new workspace named `slug`-<now> with credits enough for any run, and its API key (the bench's and the REST overhead bench's). */
export async function benchWorkspace(prisma: PrismaClient, slugPrefix: string, name: string): Promise<{ slug: string; apiKey: string }> {
  const slug = `${slugPrefix}-${Date.now()}`;
  await createWorkspace(prisma, { slug, name });
  await setCredits(prisma, { workspace: slug, recurringLimit: 2_000_000_000, recurringUsed: 0, topup: 0 });
  const { apiKey } = await createKey(prisma, { workspace: slug, name: slugPrefix });
  return { slug, apiKey };
}

/** The ad S2 and S4 read: the highest-reach group lead with a transcript and a landing page. */
export async function popularAdId(prisma: PrismaClient): Promise<string> {
  const [ad] = await prisma.$queryRaw<{ id: string }[]>`
    SELECT a."id" FROM "ads" a JOIN "ad_transcripts" t ON t."adId" = a."id"
    WHERE a."isGroupLead" AND a."landingPageDomain" IS NOT NULL ORDER BY a."reach" DESC LIMIT 1`;
  return ad.id;
}

import { beforeAll, describe, expect, it } from 'vitest';
import { adsByIds as findAds, isSummarySelection } from '../../src/schema/ads/service/search.js';
import type { TestDatabase } from '../support/database.js';
import { byId, useTinyMarket } from '../support/tiny-market.js';

// The ads of a page are loaded by one JSON statement when the request selects no more than an ad summary
// (adsByIds, src/schema/ads/service/search.ts): it must give exactly what Prisma gives, value for value and type for type,
// on every ad of the synthetic market (nulls, arrays, transcripts, EU and non-EU ads, big reaches).

const SUMMARY = { include: { advertiser: true, transcript: { select: { fullText: true } } } };

const market = useTinyMarket('ad');
let db: TestDatabase;
let ids: string[];
beforeAll(() => void ({ db, ids } = market));

describe('findAds', () => {
  it('loads every ad of the market exactly as Prisma does, with its advertiser and transcript', async () => {
    expect(ids.length).toBeGreaterThan(1000);
    const withTranscript = await db.prisma.adTranscript.count();
    expect(withTranscript).toBeGreaterThan(0);
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      const expected = await db.prisma.ad.findMany({ where: { id: { in: chunk } }, ...SUMMARY, orderBy: { id: 'asc' } });
      const loaded = byId(await findAds(db.prisma, chunk, SUMMARY));
      expect(loaded).toStrictEqual(expected);
    }
  });

  it('gives Prisma types: dates as Date, reaches as bigint, a missing transcript as null', async () => {
    const [ad] = await findAds(db.prisma, [ids[0]], SUMMARY);
    expect(ad.firstSeenAt).toBeInstanceOf(Date);
    expect(typeof ad.reach).toBe('bigint');
    const row = ad as typeof ad & { advertiser: { totalReach: unknown }; transcript: unknown };
    expect(typeof row.advertiser.totalReach).toBe('bigint');
    const [without] = await db.prisma.ad.findMany({ where: { transcript: null }, select: { id: true }, take: 1 });
    expect(((await findAds(db.prisma, [without.id], SUMMARY))[0] as typeof row).transcript).toBeNull();
  });

  it('reads a NULL list column as an empty list, as Prisma does', async () => {
    const { advertiserId } = await db.prisma.ad.findUniqueOrThrow({ where: { id: ids[0] }, select: { advertiserId: true } });
    const at = new Date('2025-01-01T00:00:00Z');
    await db.prisma.ad.createMany({
      data: [{ id: 'facebook_load_1', collationId: 'col_load_1', status: 'active', mediaType: 'image', createdAt: at, firstSeenAt: at, lastSeenAt: at, advertiserId }],
    });
    await db.pool.query(`UPDATE ads SET "targetedCountries" = NULL, "languages" = NULL WHERE id = 'facebook_load_1'`);
    const [loaded] = await findAds(db.prisma, ['facebook_load_1'], SUMMARY);
    expect(loaded.targetedCountries).toEqual([]);
    expect(loaded).toStrictEqual(await db.prisma.ad.findUniqueOrThrow({ where: { id: 'facebook_load_1' }, ...SUMMARY }));
    await db.prisma.ad.delete({ where: { id: 'facebook_load_1' } });
  });

  it('serves a narrower selection from the same statement, and a wider one from Prisma', async () => {
    const [narrow] = await findAds(db.prisma, [ids[1]], {});
    expect(narrow).toMatchObject(await db.prisma.ad.findUniqueOrThrow({ where: { id: ids[1] } }));
    const withPage = await db.prisma.ad.findFirstOrThrow({ where: { landingPageId: { not: null } }, select: { id: true } });
    const [wide] = await findAds(db.prisma, [withPage.id], { include: { landingPage: true } });
    expect((wide as typeof wide & { landingPage: { id: string } }).landingPage.id).toEqual(expect.any(String));
  });

  it('answers no ids with no rows', async () => {
    expect(await findAds(db.prisma, [], SUMMARY)).toEqual([]);
    expect(await findAds(db.prisma, ['facebook_0'], SUMMARY)).toEqual([]);
  });
});

describe('isSummarySelection', () => {
  it('accepts what the summary statement loads and less (a resolver reads no more than it selected), and nothing else', () => {
    expect(isSummarySelection({})).toBe(true);
    expect(isSummarySelection({ include: {} })).toBe(true);
    expect(isSummarySelection(SUMMARY)).toBe(true);
    expect(isSummarySelection({ include: { advertiser: true } })).toBe(true);
    expect(isSummarySelection({ include: { advertiser: { select: { id: true } } } })).toBe(true);
    expect(isSummarySelection({ select: { id: true, advertiser: true, transcript: { select: { fullText: true } } } })).toBe(true);
    expect(isSummarySelection({ include: { advertiser: true, transcript: true } })).toBe(false);
    expect(isSummarySelection({ include: { transcript: { select: { fullText: true, segments: true } } } })).toBe(false);
    expect(isSummarySelection({ include: { advertiser: { include: { shops: true } } } })).toBe(false);
    expect(isSummarySelection({ include: { landingPage: true } })).toBe(false);
    expect(isSummarySelection({ include: { reachDays: { where: { reach: 0 } } } })).toBe(false);
    expect(isSummarySelection({ select: { id: true, searchText: true } })).toBe(false);
    expect(isSummarySelection({ include: { constructor: true } })).toBe(false);
  });
});

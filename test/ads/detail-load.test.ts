import { beforeAll, describe, expect, it } from 'vitest';
import { adDetailRow, DETAIL, isDetailSelection } from '../../src/schema/ads/service/detail.js';
import type { TestDatabase } from '../support/database.js';
import { useTinyMarket } from '../support/tiny-market.js';

// An ad's detail is loaded by one JSON statement when the request selects no more than DETAIL
// (src/schema/ads/service/detail.ts): it must give exactly what Prisma gives, value for value and type for type, and the
// same ad (a duplicate group's member answers with its lead), on every ad of the synthetic market.

const market = useTinyMarket('ad');
let db: TestDatabase;
let ids: string[];
beforeAll(() => void ({ db, ids } = market));

/** What the Prisma path answers for `id`: the ad, or the lead of its group when it is another member. */
async function prismaDetail(id: string) {
  const ad = await db.prisma.ad.findUnique({ where: { id }, ...DETAIL });
  if (!ad || ad.isGroupLead) return ad;
  return (await db.prisma.ad.findFirst({ where: { collationId: ad.collationId, isGroupLead: true }, orderBy: { id: 'asc' }, ...DETAIL })) ?? ad;
}

describe('adDetailRow', () => {
  it('loads every ad of the market exactly as Prisma does, with its relations, or its group lead', async () => {
    expect(ids.length).toBeGreaterThan(1000);
    const seen = { member: 0, transcript: 0, hook: 0, noHook: 0, shops: 0, days: 0 };
    // What Prisma answers for every id (prismaDetail, read in chunks: one findMany per chunk and one for the leads).
    const expectedOf = new Map<string, Awaited<ReturnType<typeof prismaDetail>>>();
    for (let i = 0; i < ids.length; i += 500) {
      const ads = await db.prisma.ad.findMany({ where: { id: { in: ids.slice(i, i + 500) } }, ...DETAIL });
      const members = ads.filter((ad) => !ad.isGroupLead);
      const leads = await db.prisma.ad.findMany({ where: { collationId: { in: [...new Set(members.map((ad) => ad.collationId))] }, isGroupLead: true }, orderBy: { id: 'asc' }, ...DETAIL });
      const leadOf = new Map<string, (typeof leads)[number]>();
      for (const lead of leads) if (!leadOf.has(lead.collationId)) leadOf.set(lead.collationId, lead);
      for (const ad of ads) expectedOf.set(ad.id, ad.isGroupLead ? ad : (leadOf.get(ad.collationId) ?? ad));
    }
    // The chunked reads agree with prismaDetail itself, on a lead and on a member answered by its lead.
    const lead = ids.find((id) => expectedOf.get(id)?.id === id);
    const member = ids.find((id) => expectedOf.get(id)?.id !== id);
    expect(lead && member).toBeTruthy();
    for (const id of [lead!, member!]) expect(expectedOf.get(id)).toStrictEqual(await prismaDetail(id));
    for (const id of ids) {
      const loaded = await adDetailRow(db.pool, id);
      expect(loaded, id).toStrictEqual(expectedOf.get(id));
      if (loaded!.id !== id) seen.member += 1;
      if (loaded!.transcript) seen.transcript += 1;
      if (loaded!.hook) seen.hook += 1;
      else seen.noHook += 1;
      if (loaded!.advertiser.shops.length > 1) seen.shops += 1;
      if (loaded!.advertiser.metricDays.length > 1) seen.days += 1;
    }
    // The market has each case the statement writes: members answered by their lead, transcripts, hooks, several shops and days.
    for (const [name, count] of Object.entries(seen)) expect(count, name).toBeGreaterThan(0);
  });

  it('gives Prisma types: dates as Date, bigints as bigint, the segments as JSON', async () => {
    const { id } = await db.prisma.ad.findFirstOrThrow({ where: { transcript: { isNot: null }, advertiser: { metricDays: { some: {} } } }, select: { id: true } });
    const ad = (await adDetailRow(db.pool, id))!;
    expect(ad.firstSeenAt).toBeInstanceOf(Date);
    expect(typeof ad.reach).toBe('bigint');
    expect(ad.advertiser.metricDays[0].date).toBeInstanceOf(Date);
    expect(typeof ad.advertiser.metricDays[0].totalImpressions).toBe('bigint');
    expect(Array.isArray(ad.transcript!.segments)).toBe(true);
  });

  it('answers a member whose group has no lead with the member itself, and an unknown id with null', async () => {
    const { advertiserId } = await db.prisma.ad.findUniqueOrThrow({ where: { id: ids[0] }, select: { advertiserId: true } });
    const at = new Date('2025-01-01T00:00:00Z');
    await db.prisma.ad.create({
      data: { id: 'facebook_detail_1', collationId: 'col_detail_1', isGroupLead: false, status: 'active', mediaType: 'image', createdAt: at, firstSeenAt: at, lastSeenAt: at, advertiserId },
    });
    try {
      await db.pool.query(`UPDATE ads SET "targetedCountries" = NULL WHERE id = 'facebook_detail_1'`);
      const loaded = await adDetailRow(db.pool, 'facebook_detail_1');
      expect(loaded?.id).toBe('facebook_detail_1');
      expect(loaded?.targetedCountries).toEqual([]);
      expect(loaded).toStrictEqual(await prismaDetail('facebook_detail_1'));
    } finally {
      await db.prisma.ad.delete({ where: { id: 'facebook_detail_1' } });
    }
    expect(await adDetailRow(db.pool, 'facebook_0')).toBeNull();
  });
});

describe('isDetailSelection', () => {
  const { advertiser } = DETAIL.include;
  it("accepts the detail's selection as Pothos writes it and narrower ones, and nothing wider", () => {
    // Pothos's selection for every field of the detail (keys in its order: orderBy before select).
    const pothos = {
      include: {
        advertiser: { include: { shops: { orderBy: advertiser.include.shops.orderBy, select: advertiser.include.shops.select }, metricDays: { orderBy: advertiser.include.metricDays.orderBy, select: advertiser.include.metricDays.select } } },
        transcript: true,
        hook: true,
      },
    };
    expect(isDetailSelection(pothos)).toBe(true);
    expect(isDetailSelection(DETAIL)).toBe(true);
    expect(isDetailSelection({ include: { advertiser: true, transcript: { select: { fullText: true } } } })).toBe(true);
    expect(isDetailSelection({ include: { advertiser: { include: { shops: advertiser.include.shops } } } })).toBe(true);
    expect(isDetailSelection({ include: { advertiser: { include: { shops: true } } } })).toBe(false);
    expect(isDetailSelection({ include: { advertiser: { include: { shops: { ...advertiser.include.shops, orderBy: { shopId: 'desc' } } } } } })).toBe(false);
    expect(isDetailSelection({ include: { advertiser: { include: { metricDays: { ...advertiser.include.metricDays, take: 7 } } } } })).toBe(false);
    expect(isDetailSelection({ include: { advertiser: { include: { metricDays: { select: { ...advertiser.include.metricDays.select, advertiserId: true }, orderBy: { date: 'asc' } } } } } })).toBe(false);
    expect(isDetailSelection({ include: { landingPage: true } })).toBe(false);
  });
});

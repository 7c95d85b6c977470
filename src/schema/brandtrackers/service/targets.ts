import { notFound, validationError } from '../../../errors.js';
import type { Prisma, PrismaClient } from '../../../generated/prisma/client.js';
import { refreshSeriesDays } from '../../../data/ad-groups.js';
import { hostOf } from '../../shared/codes.js';

// What POST /v1/brandtrackers tracks: a Facebook page, or a website (by id, by its alias shopId, or by domain).
// The global brandtracker of the target is found, or created from the market's page or shop, and shared by every
// workspace that tracks it.

export type TargetArgs = { facebookPageId?: string | null; websiteId?: string | null; shopId?: string | null; domain?: string | null };

export type Target = { kind: 'page'; facebookPageId: string } | { kind: 'shop'; shopId: string; argument: 'websiteId' | 'shopId' } | { kind: 'domain'; host: string };

const TARGETS = ['facebookPageId', 'websiteId', 'shopId', 'domain'] as const;

/** Exactly one target, or 400 naming the fields. */
export function targetOf(args: TargetArgs): Target {
  const given = TARGETS.filter((name) => args[name] != null && args[name] !== '');
  if (given.length !== 1) {
    const expected = given.length === 0
      ? 'exactly one of facebookPageId, websiteId, shopId or domain must be given'
      : `exactly one of facebookPageId, websiteId, shopId or domain must be given, not ${given.join(' and ')}`;
    throw validationError([{ argument: given[1] ?? 'facebookPageId', expected: [expected] }]);
  }
  const [name] = given;
  if (name === 'facebookPageId') return { kind: 'page', facebookPageId: args.facebookPageId!.trim() };
  if (name === 'domain') {
    const host = hostOf(args.domain!);
    if (!/^[a-z0-9.-]+\.[a-z]{2,}$/.test(host)) throw validationError([{ argument: 'domain', expected: ['domain must be a domain name or a URL'] }]);
    return { kind: 'domain', host };
  }
  return { kind: 'shop', shopId: args[name]!, argument: name };
}

type Db = Pick<PrismaClient, 'advertiser' | 'shop' | 'brandtracker' | 'advertiserShop' | '$executeRawUnsafe'> | Prisma.TransactionClient;

/**
 * A page's daily figures are kept for the pages a brandtracker tracks (migration 0038, read by the brand's series):
 * a brandtracker of a page no other tracks computes them, in the creating transaction.
 */
const keepSeriesOf = (db: Db, facebookPageId: string) => refreshSeriesDays(db, [facebookPageId]);

async function forPage(db: Db, facebookPageId: string): Promise<string> {
  const existing = await db.brandtracker.findUnique({ where: { facebookPageId }, select: { id: true } });
  if (existing) return existing.id;
  const page = await db.advertiser.findUnique({ where: { id: facebookPageId }, select: { name: true, logoUrl: true, shops: { select: { shopId: true, isPrimary: true } } } });
  if (!page) throw notFound(`Facebook page "${facebookPageId}"`);
  const shops = [...page.shops.filter((s) => s.isPrimary), ...page.shops.filter((s) => !s.isPrimary)];
  const created = await db.brandtracker.create({
    data: {
      targetType: 'page', facebookPageId, name: page.name, avatarUrl: page.logoUrl, isLoaded: true, lastCrawledAt: new Date(),
      websites: { create: shops.map((s, position) => ({ shopId: s.shopId, position })) },
    },
    select: { id: true },
  });
  await keepSeriesOf(db, facebookPageId);
  return created.id;
}

async function forShop(db: Db, shop: { id: string; name: string; logoUrl: string | null }): Promise<string> {
  const existing = await db.brandtracker.findUnique({ where: { websiteId: shop.id }, select: { id: true } });
  if (existing) return existing.id;
  // The shop's primary page, unless another brandtracker already tracks that page (a page has one brandtracker).
  const primary = await db.advertiserShop.findFirst({ where: { shopId: shop.id }, orderBy: [{ isPrimary: 'desc' }, { isMain: 'desc' }, { rank: 'asc' }], select: { advertiserId: true } });
  const pageTaken = primary ? await db.brandtracker.findUnique({ where: { facebookPageId: primary.advertiserId }, select: { id: true } }) : null;
  const created = await db.brandtracker.create({
    data: {
      targetType: 'shop', websiteId: shop.id, facebookPageId: primary && !pageTaken ? primary.advertiserId : null, name: shop.name, avatarUrl: shop.logoUrl,
      isLoaded: true, lastCrawledAt: new Date(), websites: { create: [{ shopId: shop.id, position: 0 }] },
    },
    select: { id: true, facebookPageId: true },
  });
  if (created.facebookPageId) await keepSeriesOf(db, created.facebookPageId);
  return created.id;
}

/** The id of the target's global brandtracker, created when no workspace tracked it yet; 404 for an unknown target. */
export async function brandtrackerOfTarget(db: Db, target: Target): Promise<string> {
  if (target.kind === 'page') return forPage(db, target.facebookPageId);
  const shop = target.kind === 'domain'
    ? await db.shop.findUnique({ where: { domain: target.host }, select: { id: true, name: true, logoUrl: true } })
    : await db.shop.findUnique({ where: { id: target.shopId }, select: { id: true, name: true, logoUrl: true } });
  if (!shop) throw notFound(target.kind === 'domain' ? `Website "${target.host}"` : `Website "${target.shopId}"`);
  return forShop(db, shop);
}

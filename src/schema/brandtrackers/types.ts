import type { BrandtrackerLink } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { figuresOf, type BrandtrackerFigures } from './service/market-figures.js';
import { resolveMediaUrl } from '../shared/media-url.js';

// A brandtracker as a workspace sees it: the workspace link (display name, folder, when it was added) over the
// shared global brandtracker. REST types carry exactly the specification's fields, in its order.

type Website = {
  shop: {
    id: string; domain: string; name: string; monthlyVisits: number; trafficGrowth30d: number | null;
    facebookHandle: string | null; instagramHandle: string | null; youtubeHandle: string | null;
    trafficMonths: { month: Date; visits: number }[];
  };
};

type Global = {
  id: string; name: string; targetType: string; facebookPageId: string | null; websiteId: string | null; avatarUrl: string | null;
  isLoaded: boolean; lastCrawledAt: Date | null; createdAt: Date; updatedAt: Date; websites: Website[];
};

/** What every brandtracker field reads from the global brandtracker: one select, so the rows load in one statement. */
export const brandtrackerSelect = {
  brandtracker: {
    select: {
      id: true, name: true, targetType: true, facebookPageId: true, websiteId: true, avatarUrl: true, isLoaded: true, lastCrawledAt: true,
      createdAt: true, updatedAt: true,
      websites: {
        orderBy: [{ position: 'asc' }, { shopId: 'asc' }],
        select: {
          shop: {
            select: {
              id: true, domain: true, name: true, monthlyVisits: true, trafficGrowth30d: true, facebookHandle: true, instagramHandle: true, youtubeHandle: true,
              trafficMonths: { orderBy: { month: 'desc' }, take: 12, select: { month: true, visits: true } },
            },
          },
        },
      },
    },
  },
} as const;

export const globalOf = (link: BrandtrackerLink): Global => (link as BrandtrackerLink & { brandtracker: Global }).brandtracker;

const BrandtrackerStatus = builder.objectRef<Global>('BrandtrackerStatus').implement({
  fields: (t) => ({
    isLoaded: t.exposeBoolean('isLoaded', { description: 'Whether the first crawl of the brand is done.' }),
    lastCrawledAt: t.expose('lastCrawledAt', { type: 'DateTime', nullable: true }),
  }),
});

export const BrandtrackerFolderRef = builder.objectRef<{ id: number; name: string }>('BrandtrackerFolderRef').implement({
  fields: (t) => ({ id: t.exposeInt('id'), name: t.exposeString('name') }),
});

const BrandtrackerAdvertising = builder.objectRef<BrandtrackerFigures>('BrandtrackerAdvertising').implement({
  fields: (t) => ({
    activeAds: t.exposeInt('activeAds'),
    newAdsLastDay: t.exposeInt('newAdsLastDay', { description: 'Ads first seen in the last 24 hours.' }),
    newAdsLast7Days: t.exposeInt('newAdsLast7Days'),
    newAdsLast30Days: t.exposeInt('newAdsLast30Days'),
  }),
});

const social = (base: string, handle: string | null) => (handle ? `${base}${handle}` : null);

const BrandtrackerSocialNetworks = builder.objectRef<Website['shop']>('BrandtrackerSocialNetworks').implement({
  fields: (t) => ({
    facebook: t.string({ nullable: true, resolve: (shop) => social('https://www.facebook.com/', shop.facebookHandle) }),
    instagram: t.string({ nullable: true, resolve: (shop) => social('https://www.instagram.com/', shop.instagramHandle) }),
    youtube: t.string({ nullable: true, resolve: (shop) => social('https://www.youtube.com/@', shop.youtubeHandle) }),
  }),
});

const BrandtrackerWebsite = builder.objectRef<Website>('BrandtrackerWebsite').implement({
  fields: (t) => ({
    id: t.id({ description: 'The shop id (uuid).', resolve: (w) => w.shop.id }),
    domain: t.string({ resolve: (w) => w.shop.domain }),
    siteName: t.string({ resolve: (w) => w.shop.name }),
    trafficNumber: t.int({ description: 'Monthly visits.', resolve: (w) => w.shop.monthlyVisits }),
    trafficChange: t.float({ nullable: true, description: 'Traffic growth over 30 days as a fraction (0.18 = +18%).', resolve: (w) => w.shop.trafficGrowth30d }),
    monthlyTraffic: t.field({
      type: 'JSON',
      description: 'Visits per month, `YYYY-MM` to an integer, the last 12 months.',
      resolve: (w) => Object.fromEntries(w.shop.trafficMonths.slice().reverse().map((m) => [m.month.toISOString().slice(0, 7), m.visits])),
    }),
    socialNetworks: t.field({ type: BrandtrackerSocialNetworks, resolve: (w) => w.shop }),
  }),
});

/** The fields of every brandtracker record: list rows, the detail and mutation answers. */
export const BrandtrackerSummary = builder.prismaInterface('BrandtrackerLink', {
  name: 'BrandtrackerSummary',
  fields: (t) => ({
    id: t.field({ type: 'ID', description: 'The public brandtracker id (uuid).', select: brandtrackerSelect, resolve: (link) => globalOf(link).id }),
    name: t.string({
      description: "The workspace's display name (PATCH sets it); the brand's own name until then.",
      select: brandtrackerSelect,
      resolve: (link) => link.name ?? globalOf(link).name,
    }),
    facebookPageId: t.string({ nullable: true, select: brandtrackerSelect, resolve: (link) => globalOf(link).facebookPageId }),
    avatarUrl: t.string({ nullable: true, select: brandtrackerSelect, resolve: resolveMediaUrl((link) => globalOf(link).avatarUrl) }),
    status: t.field({ type: BrandtrackerStatus, select: brandtrackerSelect, resolve: (link) => globalOf(link) }),
    workspaceAddedAt: t.expose('addedAt', { type: 'DateTime', description: 'When the workspace added (or last re-added) the brand.' }),
    folder: t.field({
      type: BrandtrackerFolderRef,
      nullable: true,
      select: { folder: { select: { id: true, name: true } } },
      resolve: (link) => (link as { folder?: { id: number; name: string } | null }).folder ?? null,
    }),
    advertising: t.field({ type: BrandtrackerAdvertising, resolve: (link) => figuresOf(link) }),
    websites: t.field({ type: [BrandtrackerWebsite], description: "The brand's websites, its primary one first.", select: brandtrackerSelect, resolve: (link) => globalOf(link).websites }),
    totalTraffic: t.field({ type: 'SafeInt', description: 'Monthly visits summed over the websites.', resolve: (link) => figuresOf(link).totalTraffic }),
  }),
});

export const Brandtracker = builder.prismaObject('BrandtrackerLink', {
  variant: 'Brandtracker',
  interfaces: [BrandtrackerSummary],
  description: 'A brand tracked by the workspace.',
  fields: () => ({}),
});

const TargetType = builder.enumType('BrandtrackerTargetType', { values: ['page', 'shop'] as const });

export const BrandtrackerChange = builder.prismaObject('BrandtrackerLink', {
  variant: 'BrandtrackerChange',
  interfaces: [BrandtrackerSummary],
  description: 'A brandtracker as create and rename answer it: the summary plus the workspace link and the resolved target.',
  fields: (t) => ({
    workspaceLinkId: t.exposeInt('id', { description: 'The workspace link id, for the bulk move and delete operations.' }),
    targetType: t.field({ type: TargetType, select: brandtrackerSelect, resolve: (link) => (globalOf(link).targetType === 'shop' ? 'shop' : 'page') }),
    websiteId: t.string({ nullable: true, description: 'The tracked website (shop-level brandtrackers).', select: brandtrackerSelect, resolve: (link) => globalOf(link).websiteId }),
    domain: t.string({
      nullable: true,
      description: "The tracked website's domain (shop-level brandtrackers).",
      select: brandtrackerSelect,
      resolve: (link) => {
        const global = globalOf(link);
        return global.websiteId ? (global.websites.find((w) => w.shop.id === global.websiteId)?.shop.domain ?? null) : null;
      },
    }),
  }),
});

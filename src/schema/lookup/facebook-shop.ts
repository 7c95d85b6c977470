import { z } from 'zod';
import { validationError } from '../../errors.js';
import { builder } from '../builder.js';
import { resolveMediaUrl } from '../shared/media-url.js';
import { pagesOfShop, shopsOfPage, type PageEntry, type ShopEntry } from './service.js';

// GET /v1/lookup/facebook-shop: the shops a Facebook page links to, or the pages a shop links to, ranked.

type Relation = { input: { type: 'facebookPage' | 'shop'; id: string }; shops: ShopEntry[]; facebookPages: PageEntry[] };
type RelationPage = { data: Relation; meta: { limit: number; returnedShops: number; returnedFacebookPages: number } };

const relationFields = {
  rank: 'Position in the ranked list, from "1".',
  isMainRelation: "The page is the shop's main page (the one most of its ads come from).",
  isPrimary: "The shop is the page's primary shop.",
};

const FacebookShopEntry = builder.objectRef<ShopEntry>('FacebookShopEntry').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    domain: t.exposeString('domain'),
    name: t.exposeString('name'),
    rank: t.exposeString('rank', { description: relationFields.rank }),
    isMainRelation: t.exposeBoolean('isMainRelation', { description: relationFields.isMainRelation }),
    isPrimary: t.exposeBoolean('isPrimary', { description: relationFields.isPrimary }),
    trafficNumber: t.exposeInt('trafficNumber', { description: 'Monthly visits.' }),
    profilePhotoUrl: t.string({ nullable: true, resolve: resolveMediaUrl((p) => p.profilePhotoUrl) }),
  }),
});

const FacebookPageEntry = builder.objectRef<PageEntry>('FacebookPageEntry').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    facebookPageId: t.exposeString('facebookPageId'),
    name: t.exposeString('name'),
    rank: t.exposeString('rank', { description: relationFields.rank }),
    isMainRelation: t.exposeBoolean('isMainRelation', { description: relationFields.isMainRelation }),
    isPrimary: t.exposeBoolean('isPrimary', { description: relationFields.isPrimary }),
    runningAds: t.exposeInt('runningAds'),
  }),
});

const RelationInput = builder.objectRef<Relation['input']>('FacebookShopInput').implement({
  fields: (t) => ({ type: t.exposeString('type', { description: 'facebookPage or shop.' }), id: t.exposeID('id') }),
});

const FacebookShopRelation = builder.objectRef<Relation>('FacebookShopRelation').implement({
  fields: (t) => ({
    input: t.field({ type: RelationInput, resolve: (relation) => relation.input }),
    primaryShop: t.field({ type: FacebookShopEntry, nullable: true, description: "For a page: its primary shop.", resolve: (r) => r.shops.find((shop) => shop.isPrimary) ?? null }),
    shops: t.field({ type: [FacebookShopEntry], description: "For a page: its shops, the primary first, then by traffic.", resolve: (r) => r.shops }),
    primaryFacebookPage: t.field({ type: FacebookPageEntry, nullable: true, description: 'For a shop: its main page.', resolve: (r) => r.facebookPages.find((page) => page.isMainRelation) ?? null }),
    facebookPages: t.field({ type: [FacebookPageEntry], description: 'For a shop: its pages, the main one first.', resolve: (r) => r.facebookPages }),
  }),
});

const RelationMeta = builder.objectRef<RelationPage['meta']>('FacebookShopMeta').implement({
  fields: (t) => ({ limit: t.exposeInt('limit'), returnedShops: t.exposeInt('returnedShops'), returnedFacebookPages: t.exposeInt('returnedFacebookPages') }),
});

const FacebookShopPage = builder.objectRef<RelationPage>('FacebookShopPage').implement({
  fields: (t) => ({
    data: t.field({ type: FacebookShopRelation, resolve: (page) => page.data }),
    meta: t.field({ type: RelationMeta, resolve: (page) => page.meta }),
  }),
});

const PAGE_ALIASES = ['facebook_id', 'facebookPageId', 'fb_page_id'] as const;
const SHOP_ALIASES = ['shopId', 'website_id'] as const;
const pageId = z.string().trim().min(1).max(128);
const shopId = z.uuid('{name} must be a UUID');

builder.queryFields((t) => ({
  lookupFacebookShop: t.field({
    type: FacebookShopPage,
    nullable: true,
    authScopes: { workspace: true },
    description: 'The shops of a Facebook page, or the Facebook pages of a shop (GET /v1/lookup/facebook-shop). Exactly one identifier.',
    args: {
      facebook_id: t.arg.string({ description: 'A Facebook page id.', validate: pageId }),
      facebookPageId: t.arg.string({ description: 'A Facebook page id.', validate: pageId }),
      fb_page_id: t.arg.string({ description: 'A Facebook page id.', validate: pageId }),
      shopId: t.arg.string({ description: 'A shop id (UUID).', validate: shopId }),
      website_id: t.arg.string({ description: 'A shop id (UUID).', validate: shopId }),
      limit: t.arg.int({ defaultValue: 50, description: 'Entries per list, 1..50 (default 50).', validate: z.number().int().min(1).max(50) }),
    },
    resolve: async (_root, args, context) => {
      const given = [...PAGE_ALIASES, ...SHOP_ALIASES].filter((name) => args[name] != null);
      const expected = `exactly one of ${[...PAGE_ALIASES, ...SHOP_ALIASES].join(', ')} must be given`;
      if (given.length !== 1) throw validationError([{ argument: given[1] ?? 'facebookPageId', expected: [expected] }]);
      const name = given[0];
      const id = args[name]!.trim();
      const limit = args.limit ?? 50;
      const isPage = (PAGE_ALIASES as readonly string[]).includes(name);
      const relation: Relation = isPage
        ? { input: { type: 'facebookPage', id }, shops: await shopsOfPage(context, id, limit), facebookPages: [] }
        : { input: { type: 'shop', id }, shops: [], facebookPages: await pagesOfShop(context, id, limit) };
      return { data: relation, meta: { limit, returnedShops: relation.shops.length, returnedFacebookPages: relation.facebookPages.length } };
    },
  }),
}));

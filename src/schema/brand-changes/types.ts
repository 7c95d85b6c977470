import type { ObjectRef } from '@pothos/core';
import { PublicAd } from '../ads/types.js';
import { builder } from '../builder.js';
import { ProductRef } from '../products/types.js';
import { EXPANSIONS, SECTIONS, type BrandChanges, type ChangeItem, type ChangeSection, type Expansion, type Section } from './service.js';

// The answer of a brand's changes: the brand, the window, and one section per kind of change, each with its exact count
// and a page of its items (newest first). Items are compact: the ids, the ad's or product's title, the dates and what
// changed, and the event they come from (`evt_…`, as the feed shows it) when they come from one; their ad (an Ad
// summary) or product (a Product), as the ads and products routes show them, only with `expand`.

export const BrandChangeSection = builder.enumType('BrandChangeSection', {
  description: 'A kind of change of a brand (a section of its changes).',
  values: Object.fromEntries(SECTIONS.map((section) => [section, { value: section }])) as Record<Section, { value: Section }>,
});

export const BrandChangeExpansion = builder.enumType('BrandChangeExpansion', {
  description: "What a brand's change items carry beyond their ids and titles: `ads`, each ad's Ad summary (`ad`); `products`, each product (`product`).",
  values: Object.fromEntries(EXPANSIONS.map((expansion) => [expansion, { value: expansion }])) as Record<Expansion, { value: Expansion }>,
});

type Side = Record<string, unknown> | null | undefined;
const before = (item: ChangeItem): Side => item.data.before;
const after = (item: ChangeItem): Side => item.data.after;
const text = (side: Side, key: string) => (side && typeof side[key] === 'string' ? (side[key] as string) : null);
const number = (side: Side, key: string) => (side && typeof side[key] === 'number' ? (side[key] as number) : null);

const ref = (name: string) => builder.objectRef<ChangeItem>(name);
type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;
type Fields = PothosSchemaTypes.ObjectFieldBuilder<Types, ChangeItem>;
type ItemRef = ObjectRef<Types, ChangeItem>;

/** The fields of an item that comes from an event. */
function eventFields(t: Fields) {
  return {
    occurredAt: t.field({ type: 'DateTime', description: 'When the change was seen in the market (the event\'s occurredAt).', resolve: (item) => item.at }),
    eventId: t.string({ description: 'The event it comes from (`evt_…`), as the feed (GET /v1/events) shows it.', resolve: (item) => item.eventId ?? '' }),
  };
}

function adFields(t: Fields) {
  return {
    adId: t.string({ resolve: (item) => item.adId ?? '' }),
    adTitle: t.string({ nullable: true, description: "The ad's title, or the opening line of its body when it has none (null if it is no longer stored).", resolve: (item) => item.adTitle }),
    ad: t.field({ type: PublicAd, nullable: true, description: 'The ad as the ads routes show it, with `expand=ads` only (null without it, or if the ad is no longer stored).', resolve: (item) => item.ad }),
  };
}

function productFields(t: Fields) {
  return {
    productId: t.string({ resolve: (item) => item.productId ?? '' }),
    shopId: t.string({ resolve: (item) => item.shopId ?? '' }),
    productTitle: t.string({ nullable: true, description: "The product's title (null if it is no longer stored).", resolve: (item) => item.productTitle }),
    product: t.field({ type: ProductRef, nullable: true, description: 'The product as the products routes show it, with `expand=products` only (null without it, or if the product is no longer stored).', resolve: (item) => item.product as never }),
  };
}

const AdLife = ref('BrandChangeAd').implement({
  description: 'An ad that started (its first day) or stopped (its last day, and it is inactive now) in the window.',
  fields: (t) => ({ at: t.field({ type: 'DateTime', description: 'The ad\'s first day (started) or last day (stopped).', resolve: (item) => item.at }), ...adFields(t) }),
});

const CopyText = builder.objectRef<Side>('BrandChangeCopyText').implement({
  fields: (t) => ({ title: t.string({ nullable: true, resolve: (side) => text(side, 'title') }), body: t.string({ nullable: true, resolve: (side) => text(side, 'body') }) }),
});

const CopyChange = ref('BrandChangeCopy').implement({
  description: 'An ad whose copy (title or body) changed.',
  fields: (t) => ({ ...eventFields(t), ...adFields(t), before: t.field({ type: CopyText, resolve: before }), after: t.field({ type: CopyText, resolve: after }) }),
});

const HookChange = ref('BrandChangeHook').implement({
  description: 'An ad whose hook changed: the opening line of its copy (up to the first sentence end or line break).',
  fields: (t) => ({
    ...eventFields(t), ...adFields(t),
    before: t.string({ nullable: true, resolve: (item) => text(before(item), 'hook') }),
    after: t.string({ nullable: true, resolve: (item) => text(after(item), 'hook') }),
  }),
});

const LandingPageChange = ref('BrandChangeLandingPage').implement({
  description: 'An ad that points to another landing page: the domains before and after.',
  fields: (t) => ({
    ...eventFields(t), ...adFields(t),
    before: t.string({ nullable: true, resolve: (item) => text(before(item), 'landingPageDomain') }),
    after: t.string({ nullable: true, resolve: (item) => text(after(item), 'landingPageDomain') }),
  }),
});

const NewLandingPage = ref('BrandChangeNewLandingPage').implement({
  description: "A landing page domain the brand's ads first pointed to in the window.",
  fields: (t) => ({
    domain: t.string({ resolve: (item) => item.domain ?? '' }),
    firstSeenAt: t.field({ type: 'DateTime', description: 'The first day of an ad started in the window that points to it, or the first change of an ad to it.', resolve: (item) => item.at }),
  }),
});

const NewProduct = ref('BrandChangeNewProduct').implement({
  description: 'A product the shop created in the window (its Shopify created_at).',
  fields: (t) => ({ createdAt: t.field({ type: 'DateTime', resolve: (item) => item.at }), ...productFields(t) }),
});

const PriceChange = ref('BrandChangePrice').implement({
  description: "A product's price changed (in its currency).",
  fields: (t) => ({
    ...eventFields(t), ...productFields(t),
    before: t.float({ nullable: true, resolve: (item) => number(before(item), 'price') }),
    after: t.float({ nullable: true, resolve: (item) => number(after(item), 'price') }),
    currency: t.string({ nullable: true, resolve: (item) => text(after(item), 'currency') }),
  }),
});

const StockChange = ref('BrandChangeStock').implement({
  description: 'A product sold out (no variant available any more) or back in stock.',
  fields: (t) => ({ ...eventFields(t), ...productFields(t), available: t.boolean({ description: 'true: back in stock; false: out of stock.', resolve: (item) => after(item)?.available === true }) }),
});

const RankMove = ref('BrandChangeRank').implement({
  description: "An ad that moved into or out of its page's top (EVENTS_TOP_RANK, 10 by default) or first place by current rank.",
  fields: (t) => ({
    ...eventFields(t), ...adFields(t),
    before: t.int({ nullable: true, description: 'The rank before (null: new or inactive before).', resolve: (item) => number(before(item), 'rank') }),
    after: t.int({ nullable: true, resolve: (item) => number(after(item), 'rank') }),
  }),
});

type App = { id?: unknown; name?: unknown } | undefined;
const appOf = (item: ChangeItem): App => ((after(item) ?? before(item))?.app as App) ?? undefined;

const AppChange = ref('BrandChangeApp').implement({
  description: 'A Shopify app a shop started or stopped using.',
  fields: (t) => ({
    ...eventFields(t),
    shopId: t.string({ resolve: (item) => item.shopId ?? '' }),
    appId: t.int({ nullable: true, resolve: (item) => (typeof appOf(item)?.id === 'number' ? (appOf(item)!.id as number) : null) }),
    appName: t.string({ nullable: true, resolve: (item) => (typeof appOf(item)?.name === 'string' ? (appOf(item)!.name as string) : null) }),
  }),
});

/** A section: its exact count in the window and a page of its items. */
function sectionRef(name: string, item: ItemRef) {
  return builder.objectRef<ChangeSection>(`BrandChanges${name}`).implement({
    fields: (t) => ({
      total: t.exposeInt('total', { description: 'Every change of this kind in the window (exact).' }),
      hasMore: t.boolean({ description: 'More items follow: ask again with a larger offset (and sections=<this one> to page it alone).', resolve: (s) => s.total > s.offset + s.items.length }),
      items: t.field({ type: [item], description: 'Newest first, at most `limit`, after `offset`.', resolve: (s) => s.items }),
    }),
  });
}

const SECTION_TYPES: Record<Section, { type: ReturnType<typeof sectionRef>; description: string }> = {
  adsStarted: { type: sectionRef('AdsStarted', AdLife), description: "Ads of the brand's page whose first day is in the window." },
  adsStopped: { type: sectionRef('AdsStopped', AdLife), description: "Ads of the brand's page whose last day is in the window and that are inactive now." },
  copyChanges: { type: sectionRef('CopyChanges', CopyChange), description: 'ad.copy_changed events.' },
  hookChanges: { type: sectionRef('HookChanges', HookChange), description: 'The copy changes that changed the opening line of the body.' },
  landingPageChanges: { type: sectionRef('LandingPageChanges', LandingPageChange), description: 'ad.landing_page_changed events.' },
  newLandingPages: { type: sectionRef('NewLandingPages', NewLandingPage), description: "Domains first pointed to in the window: by an ad started in it or an ad's landing-page change in it, and by no ad of the page that started before it (unless moved to it in the window)." },
  newProducts: { type: sectionRef('NewProducts', NewProduct), description: "Products of the brand's shops created in the window." },
  priceChanges: { type: sectionRef('PriceChanges', PriceChange), description: 'product.price_changed events.' },
  stockChanges: { type: sectionRef('StockChanges', StockChange), description: 'product.out_of_stock and product.back_in_stock events.' },
  rankMoves: { type: sectionRef('RankMoves', RankMove), description: 'brandtracker.rank_changed events (recorded for the pages a brandtracker follows).' },
  appsInstalled: { type: sectionRef('AppsInstalled', AppChange), description: 'shop.app_installed events.' },
  appsRemoved: { type: sectionRef('AppsRemoved', AppChange), description: 'shop.app_removed events.' },
};

export const BrandChangesRef = builder.objectRef<BrandChanges>('BrandChanges').implement({
  description: "What changed for a brand in a window: one section per kind of change (null when not asked for with `sections`), each with its exact total and a page of items.",
  fields: (t) => ({
    brandtrackerId: t.exposeString('brandtrackerId', { nullable: true, description: 'The brandtracker asked about (null for an advertiser or a shop).' }),
    advertiserIds: t.exposeStringList('advertiserIds', { description: 'The Facebook pages whose ads were read.' }),
    shopIds: t.exposeStringList('shopIds', { description: 'The shops whose products and apps were read.' }),
    from: t.expose('from', { type: 'DateTime', description: 'The window\'s start (inclusive).' }),
    to: t.expose('to', { type: 'DateTime', description: 'The window\'s end (exclusive).' }),
    ...Object.fromEntries(
      SECTIONS.map((section) => [section, t.field({ type: SECTION_TYPES[section].type, nullable: true, description: SECTION_TYPES[section].description, resolve: (changes) => changes.sections[section] ?? null })]),
    ),
  }),
});

import { PublicAd } from '../ads/types.js';
import { builder } from '../builder.js';
import { ProductRef } from '../products/types.js';
import { EXPANSIONS, SECTIONS, type BrandChanges, type ChangeSection, type CopyText, type Expansion, type Section, type SectionItems } from './service.js';

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

// Every field is exposed (the service shapes the items as the answer shows them): graphql-jit then reads properties,
// with no resolver to call for each field of each item.

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;
type Fields<Shape extends object> = PothosSchemaTypes.ObjectFieldBuilder<Types, Shape>;
type EventShape = SectionItems['rankMoves'];
type AdShape = SectionItems['adsStarted'];
type ProductShape = SectionItems['newProducts'];

/** The fields of an item that comes from an event. */
function eventFields(t: Fields<Pick<EventShape, 'occurredAt' | 'eventId'>>) {
  return {
    occurredAt: t.expose('occurredAt', { type: 'DateTime', description: 'When the change was seen in the market (the event\'s occurredAt).' }),
    eventId: t.exposeString('eventId', { description: 'The event it comes from (`evt_…`), as the feed (GET /v1/events) shows it.' }),
  };
}

function adFields(t: Fields<Pick<AdShape, 'adId' | 'adTitle' | 'ad'>>) {
  return {
    adId: t.exposeString('adId'),
    adTitle: t.exposeString('adTitle', { nullable: true, description: "The ad's title, or the opening line of its body when it has none (null if it is no longer stored)." }),
    ad: t.expose('ad', { type: PublicAd, nullable: true, description: 'The ad as the ads routes show it, with `expand=ads` only (null without it, or if the ad is no longer stored).' }),
  };
}

function productFields(t: Fields<Omit<ProductShape, 'createdAt'>>) {
  return {
    productId: t.exposeString('productId'),
    shopId: t.exposeString('shopId'),
    productTitle: t.exposeString('productTitle', { nullable: true, description: "The product's title (null if it is no longer stored)." }),
    product: t.expose('product', { type: ProductRef, nullable: true, description: 'The product as the products routes show it, with `expand=products` only (null without it, or if the product is no longer stored).' }),
  };
}
const AdLife = builder.objectRef<SectionItems['adsStarted']>('BrandChangeAd').implement({
  description: 'An ad that started (its first day) or stopped (its last day, and it is inactive now) in the window.',
  fields: (t) => ({ at: t.expose('at', { type: 'DateTime', description: "The ad's first day (started) or last day (stopped)." }), ...adFields(t) }),
});

const CopyTextRef = builder.objectRef<CopyText>('BrandChangeCopyText').implement({
  fields: (t) => ({ title: t.exposeString('title', { nullable: true }), body: t.exposeString('body', { nullable: true }) }),
});

const CopyChange = builder.objectRef<SectionItems['copyChanges']>('BrandChangeCopy').implement({
  description: 'An ad whose copy (title or body) changed.',
  fields: (t) => ({ ...eventFields(t), ...adFields(t), before: t.expose('before', { type: CopyTextRef }), after: t.expose('after', { type: CopyTextRef }) }),
});

const HookChange = builder.objectRef<SectionItems['hookChanges']>('BrandChangeHook').implement({
  description: 'An ad whose hook changed: the opening line of its copy (up to the first sentence end or line break).',
  fields: (t) => ({ ...eventFields(t), ...adFields(t), before: t.exposeString('before', { nullable: true }), after: t.exposeString('after', { nullable: true }) }),
});

const LandingPageChange = builder.objectRef<SectionItems['landingPageChanges']>('BrandChangeLandingPage').implement({
  description: 'An ad that points to another landing page: the domains before and after.',
  fields: (t) => ({ ...eventFields(t), ...adFields(t), before: t.exposeString('before', { nullable: true }), after: t.exposeString('after', { nullable: true }) }),
});

const NewLandingPage = builder.objectRef<SectionItems['newLandingPages']>('BrandChangeNewLandingPage').implement({
  description: "A landing page domain the brand's ads first pointed to in the window.",
  fields: (t) => ({
    domain: t.exposeString('domain'),
    firstSeenAt: t.expose('firstSeenAt', { type: 'DateTime', description: 'The first day of an ad started in the window that points to it, or the first change of an ad to it.' }),
  }),
});

const NewProduct = builder.objectRef<SectionItems['newProducts']>('BrandChangeNewProduct').implement({
  description: 'A product the shop created in the window (its Shopify created_at).',
  fields: (t) => ({ createdAt: t.expose('createdAt', { type: 'DateTime' }), ...productFields(t) }),
});

const PriceChange = builder.objectRef<SectionItems['priceChanges']>('BrandChangePrice').implement({
  description: "A product's price changed (in its currency).",
  fields: (t) => ({
    ...eventFields(t), ...productFields(t),
    before: t.exposeFloat('before', { nullable: true }),
    after: t.exposeFloat('after', { nullable: true }),
    currency: t.exposeString('currency', { nullable: true }),
  }),
});

const StockChange = builder.objectRef<SectionItems['stockChanges']>('BrandChangeStock').implement({
  description: 'A product sold out (no variant available any more) or back in stock.',
  fields: (t) => ({ ...eventFields(t), ...productFields(t), available: t.exposeBoolean('available', { description: 'true: back in stock; false: out of stock.' }) }),
});

const RankMove = builder.objectRef<SectionItems['rankMoves']>('BrandChangeRank').implement({
  description: "An ad that moved into or out of its page's top (EVENTS_TOP_RANK, 10 by default) or first place by current rank.",
  fields: (t) => ({
    ...eventFields(t), ...adFields(t),
    before: t.exposeInt('before', { nullable: true, description: 'The rank before (null: new or inactive before).' }),
    after: t.exposeInt('after', { nullable: true }),
  }),
});

const AppChange = builder.objectRef<SectionItems['appsInstalled']>('BrandChangeApp').implement({
  description: 'A Shopify app a shop started or stopped using.',
  fields: (t) => ({
    ...eventFields(t),
    shopId: t.exposeString('shopId'),
    appId: t.exposeInt('appId', { nullable: true }),
    appName: t.exposeString('appName', { nullable: true }),
  }),
});

/** A section: its exact count in the window and a page of its items. */
function sectionRef<S extends Section>(name: string, item: PothosSchemaTypes.ObjectRef<Types, SectionItems[S]>) {
  return builder.objectRef<ChangeSection<S>>(`BrandChanges${name}`).implement({
    fields: (t) => ({
      total: t.exposeInt('total', { description: 'Every change of this kind in the window (exact).' }),
      hasMore: t.exposeBoolean('hasMore', { description: 'More items follow: ask again with a larger offset (and sections=<this one> to page it alone).' }),
      items: t.expose('items', { type: [item], description: 'Newest first, at most `limit`, after `offset`.' }),
    }),
  });
}

const SECTION_TYPES = {
  adsStarted: { type: sectionRef<'adsStarted'>('AdsStarted', AdLife), description: "Ads of the brand's page whose first day is in the window." },
  adsStopped: { type: sectionRef<'adsStopped'>('AdsStopped', AdLife), description: "Ads of the brand's page whose last day is in the window and that are inactive now." },
  copyChanges: { type: sectionRef<'copyChanges'>('CopyChanges', CopyChange), description: 'ad.copy_changed events.' },
  hookChanges: { type: sectionRef<'hookChanges'>('HookChanges', HookChange), description: 'The copy changes that changed the opening line of the body.' },
  landingPageChanges: { type: sectionRef<'landingPageChanges'>('LandingPageChanges', LandingPageChange), description: 'ad.landing_page_changed events.' },
  newLandingPages: { type: sectionRef<'newLandingPages'>('NewLandingPages', NewLandingPage), description: "Domains first pointed to in the window: by an ad started in it or an ad's landing-page change in it, and by no ad of the page that started before it (unless moved to it in the window)." },
  newProducts: { type: sectionRef<'newProducts'>('NewProducts', NewProduct), description: "Products of the brand's shops created in the window." },
  priceChanges: { type: sectionRef<'priceChanges'>('PriceChanges', PriceChange), description: 'product.price_changed events.' },
  stockChanges: { type: sectionRef<'stockChanges'>('StockChanges', StockChange), description: 'product.out_of_stock and product.back_in_stock events.' },
  rankMoves: { type: sectionRef<'rankMoves'>('RankMoves', RankMove), description: 'brandtracker.rank_changed events (recorded for the pages a brandtracker follows).' },
  appsInstalled: { type: sectionRef<'appsInstalled'>('AppsInstalled', AppChange), description: 'shop.app_installed events.' },
  appsRemoved: { type: sectionRef<'appsRemoved'>('AppsRemoved', AppChange), description: 'shop.app_removed events.' },
} satisfies { [S in Section]: { type: unknown; description: string } };

/** A section's field of the answer (null when not asked for). */
const sectionField = <S extends Section>(section: S) => ({ type: SECTION_TYPES[section].type, nullable: true as const, description: SECTION_TYPES[section].description });

export const BrandChangesRef = builder.objectRef<BrandChanges>('BrandChanges').implement({
  description: "What changed for a brand in a window: one section per kind of change (null when not asked for with `sections`), each with its exact total and a page of items.",
  fields: (t) => ({
    brandtrackerId: t.exposeString('brandtrackerId', { nullable: true, description: 'The brandtracker asked about (null for an advertiser or a shop).' }),
    advertiserIds: t.exposeStringList('advertiserIds', { description: 'The Facebook pages whose ads were read.' }),
    shopIds: t.exposeStringList('shopIds', { description: 'The shops whose products and apps were read.' }),
    from: t.expose('from', { type: 'DateTime', description: 'The window\'s start (inclusive).' }),
    to: t.expose('to', { type: 'DateTime', description: 'The window\'s end (exclusive).' }),
    // One field a section, in SECTION_TYPES's order (which covers every section).
    ...Object.fromEntries((Object.keys(SECTION_TYPES) as Section[]).map((section) => [section, t.expose(section, sectionField(section))])),
  }),
});

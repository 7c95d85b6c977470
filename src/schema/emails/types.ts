import type { Email, EmailEvent, Prisma, Shop } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { shopFigures, ShopDetailProfile, ShopTechnology, ShopTrustpilot, TECHNOLOGY_SELECT, trustpilotOf, type ShopFigures } from '../shops/service.js';
import { avgEmailsPerWeek } from './figures.js';
import { EMAIL_SUMMARY, shopEmailAnalytics, type ShopEmailAnalytics as ShopAnalytics } from './service.js';
import { resolveMediaUrl } from '../shared/media-url.js';

// Email records: the summary of lists and the detail of GET /v1/emails/{emailId}.

const PREVIEW_LENGTH = 200;

type Classified = Email & { promotionType: { name: string } | null; category: { name: string } | null; event: EmailEvent | null };

const EmailEventRef = builder.objectRef<EmailEvent>('EmailEvent').implement({
  fields: (t) => ({ name: t.exposeString('name'), id: t.exposeInt('id'), category: t.exposeString('category') }),
});

const EmailClassification = builder.objectRef<Classified>('EmailClassification').implement({
  fields: (t) => ({
    promotionType: t.string({ nullable: true, resolve: (e) => e.promotionType?.name ?? null }),
    promotionTypeId: t.exposeInt('promotionTypeId', { nullable: true }),
    category: t.string({ nullable: true, resolve: (e) => e.category?.name ?? null }),
    categoryId: t.exposeInt('categoryId', { nullable: true }),
    event: t.field({ type: EmailEventRef, nullable: true, description: 'The calendar or lifecycle event the email is about.', resolve: (e) => e.event }),
  }),
});

const CLASSIFICATION_SELECT = { promotionType: { select: { name: true } }, category: { select: { name: true } }, event: true } satisfies Prisma.EmailSelect;

export const EmailContent = builder.objectRef<Email>('EmailContent').implement({
  fields: (t) => ({
    subject: t.exposeString('subject'),
    preheader: t.exposeString('preheader', { nullable: true }),
    bodyPreview: t.string({ description: `The first ${PREVIEW_LENGTH} characters of the plain-text body.`, resolve: (e) => e.body.slice(0, PREVIEW_LENGTH) }),
    bodyLength: t.exposeInt('bodyLength', { description: 'Characters of the plain-text body.' }),
    screenshotUrl: t.string({ nullable: true, resolve: resolveMediaUrl((p) => p.screenshotUrl) }),
  }),
});

const EmailDetailContent = builder.objectRef<Email>('EmailDetailContent').implement({
  fields: (t) => ({
    subject: t.exposeString('subject'),
    preheader: t.exposeString('preheader', { nullable: true }),
    bodyPreview: t.string({ resolve: (e) => e.body.slice(0, PREVIEW_LENGTH) }),
    bodyLength: t.exposeInt('bodyLength'),
    screenshotUrl: t.string({ nullable: true, resolve: resolveMediaUrl((p) => p.screenshotUrl) }),
    body: t.exposeString('body', { description: 'The plain-text body.' }),
  }),
});

export const EmailShop = builder.prismaObject('Shop', {
  variant: 'EmailShop',
  description: 'The shop that sent the email.',
  fields: (t) => ({ id: t.exposeID('id'), domain: t.exposeString('domain'), name: t.exposeString('name') }),
});

const EmailShopTraffic = builder.objectRef<Shop>('EmailShopTraffic').implement({
  fields: (t) => ({
    monthlyVisits: t.exposeInt('monthlyVisits'),
    growth30d: t.exposeFloat('trafficGrowth30d', { nullable: true, description: 'Fraction: 0.18 = +18%.' }),
    growth90d: t.exposeFloat('trafficGrowth90d', { nullable: true }),
    mainMarket: t.exposeString('mainMarket', { nullable: true, description: 'The country most visitors come from.' }),
  }),
});

const EmailShopCatalog = builder.objectRef<Shop>('EmailShopCatalog').implement({
  fields: (t) => ({
    productsCount: t.exposeInt('productsCount'),
    mainCategory: t.string({ nullable: true, resolve: (shop) => shop.categories[0] ?? null }),
    categories: t.exposeStringList('categories'),
  }),
});

const EmailShopMarketing = builder.objectRef<ShopFigures>('EmailShopMarketing').implement({
  description: "The shop's advertising: Meta ads of its linked pages and its TikTok account.",
  fields: (t) => ({
    activeAds: t.exposeInt('activeAds'),
    linkedAdvertisersCount: t.exposeInt('linkedAdvertisersCount'),
    hasTikTok: t.boolean({ resolve: (f) => f.tiktok !== null }),
  }),
});

const EmailShopAnalytics = builder.objectRef<ShopAnalytics>('EmailShopAnalytics').implement({
  fields: (t) => ({
    emails90d: t.exposeInt('emails90d', { description: 'Emails the shop sent in the last 90 days.' }),
    avgEmailsPerWeek: t.float({ resolve: (a) => avgEmailsPerWeek(a.emails90d) }),
    lastEmailAt: t.expose('lastEmailAt', { type: 'DateTime', nullable: true }),
  }),
});

export const EmailDetailShop = builder.prismaObject('Shop', {
  variant: 'EmailDetailShop',
  fields: (t) => ({
    id: t.exposeID('id'),
    domain: t.exposeString('domain'),
    name: t.exposeString('name'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    profile: t.field({ type: ShopDetailProfile, resolve: (shop) => shop }),
    traffic: t.field({ type: EmailShopTraffic, resolve: (shop) => shop }),
    catalog: t.field({ type: EmailShopCatalog, resolve: (shop) => shop }),
    marketing: t.field({ type: EmailShopMarketing, resolve: (shop, _args, context) => shopFigures(context).load(shop.id) }),
    technology: t.field({ type: ShopTechnology, select: TECHNOLOGY_SELECT, resolve: (shop) => shop as never }),
    trustpilot: t.field({ type: ShopTrustpilot, nullable: true, resolve: trustpilotOf }),
    analytics: t.field({
      type: EmailShopAnalytics,
      resolve: (shop, _args, context) => shopEmailAnalytics(context, shop.id),
    }),
  }),
});

type SummaryRow = Classified & { shop: Pick<Shop, 'id' | 'domain' | 'name'> | null };

/**
 * An email summary, one row of the email lists. What it reads besides the email is included at the type level
 * (EMAIL_SUMMARY, which the lists' JSON statement loads) and its fields read the row: a relation field would make
 * Pothos look up its loader mapping for every row, and load again what a JSON statement loaded.
 */
export const EmailSummary = builder.prismaObject('Email', {
  variant: 'EmailSummary',
  description: 'A marketing email of a shop.',
  include: EMAIL_SUMMARY.include,
  fields: (t) => ({
    id: t.exposeInt('id'),
    sentAt: t.expose('sentAt', { type: 'DateTime' }),
    campaignType: t.exposeString('campaignType'),
    classification: t.field({ type: EmailClassification, resolve: (e) => e as SummaryRow }),
    content: t.field({ type: EmailContent, resolve: (e) => e }),
    shop: t.field({ type: EmailShop, nullable: true, resolve: (e) => (e as SummaryRow).shop as Shop | null }),
  }),
});

export const EmailDetail = builder.prismaObject('Email', {
  variant: 'EmailDetail',
  description: 'An email with its body, language and its shop in more detail.',
  fields: (t) => ({
    id: t.exposeInt('id'),
    sentAt: t.expose('sentAt', { type: 'DateTime' }),
    campaignType: t.exposeString('campaignType'),
    classification: t.field({ type: EmailClassification, select: CLASSIFICATION_SELECT, resolve: (e) => e as Classified }),
    content: t.field({ type: EmailDetailContent, resolve: (e) => e }),
    shop: t.relation('shop', { type: EmailDetailShop, nullable: true }),
    language: t.exposeString('language', { nullable: true, description: 'ISO 639-1.' }),
  }),
});

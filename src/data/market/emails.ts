import type { Rng } from '../random.js';
import type { ShopSeed } from './advertisers.js';
import { define, type MarketTable, type TableRows } from './define.js';
import {
  AUTOMATED_CATEGORIES,
  CAMPAIGN_CATEGORIES,
  EMAIL_CATEGORIES,
  EMAIL_EVENTS,
  emailCategoryId,
  eventWindows,
  LIFECYCLE_EVENT,
  PROMOTION_TYPES,
  PROMOTIONS_BY_CATEGORY,
  promotionTypeId,
  type EmailCategory,
  type EmailEventDef,
  type EventWindow,
} from './email-calendar.js';
import { writeEmail, type ProductCard } from './email-content.js';
import { EMAIL_LANGUAGES, type EmailLanguage } from './email-copy.js';
import { currencyOf, languageOf } from './locale.js';
import { dayOf, DAY, isoTimestamp, type Window } from './time.js';
import { USD_PER_UNIT } from '../usd-rates.js';
import { VOCABULARY, type Category } from './words.js';

// Marketing emails of the shops with their classification. A few shops in ten send emails (more of the busy
// ones); their emails are drawn shop by shop from the shop's own stream, ids 1..N in shop order then send time.

export type EmailSeed = {
  id: number;
  shop: ShopSeed;
  fromAddress: string;
  sentAt: number;
  campaignType: 'campaign' | 'automated';
  language: EmailLanguage;
  subject: string;
  preheader: string | null;
  body: string;
  html: string | null;
  promotionTypeId: number;
  categoryId: number;
  eventId: number | null;
};

/** `first`: the first email slice also carries the classification tables. */
export type EmailSlice = { kind: 'emails'; first: boolean; shops: ShopSeed[]; emails: EmailSeed[] };

export type EmailsPlan = {
  /** Emails per shop, in shop order. */
  emailCounts: number[];
  /** Rows of the email tables, known up front. */
  totals: Partial<Record<MarketTable, number>>;
  shopsBetween(start: number, end: number): Omit<EmailSlice, 'kind'>;
};

/** The share of shops whose emails are captured. */
const SENDER_SHARE = 0.06;
const HISTORY_DAYS = 365;
/** Flows that go out once (birthday) or as a short series (welcome) per subscriber. */
const FLOW_LIMITS: Partial<Record<EmailCategory, number>> = { welcome: 3, birthday: 1 };
/** Campaign send days, Sunday first: mid-week is busiest. */
const WEEKDAY_WEIGHTS = [0.55, 0.9, 1.1, 1.05, 1.1, 0.9, 0.6];
/** Local send hours of campaigns: mornings and early evenings. */
const CAMPAIGN_HOURS: readonly (readonly [number, number])[] = [
  [6, 2], [7, 5], [8, 9], [9, 12], [10, 12], [11, 9], [12, 7], [13, 5], [14, 5], [15, 5], [16, 5], [17, 7], [18, 9], [19, 9], [20, 7], [21, 3],
];
/** Standard UTC offsets (hours) of the market's countries. */
const UTC_OFFSET: Readonly<Record<string, number>> = {
  US: -5, CA: -5, MX: -6, BR: -3, GB: 0, IE: 0, PT: 0, FI: 2, GR: 2, RO: 2, ZA: 2, AE: 4, IN: 5.5, SG: 8, JP: 9, AU: 10, NZ: 12,
};
const SENDERS: readonly (readonly [string, number])[] = [['hello', 35], ['news', 20], ['info', 15], ['team', 10], ['shop', 8], ['hi', 7], ['newsletter', 5]];
const ACCENTS = ['#111111', '#1f3a5f', '#c0392b', '#2e7d32', '#8e44ad', '#d35400', '#b8860b', '#e91e63', '#00796b'];
/** Typical product price (USD) per category. */
const PRICE_USD: Record<Category, number> = {
  Clothing: 45,
  Beauty: 32,
  'Health & wellness': 35,
  'Home decor': 55,
  Electronics: 60,
  'Pet supplies': 30,
  Jewelry: 40,
  Sports: 40,
  'Food & beverage': 22,
  Toys: 30,
};
const CATEGORIES_OF_TAXONOMY = new Map<string, Category[]>();
for (const [category, { taxonomy }] of Object.entries(VOCABULARY) as [Category, { taxonomy: string }][]) {
  CATEGORIES_OF_TAXONOMY.set(taxonomy, [...(CATEGORIES_OF_TAXONOMY.get(taxonomy) ?? []), category]);
}

/**
 * Splits `total` over the shops by `weights` (0 = sends nothing) with largest remainders: every sender gets at
 * least one, none more than its cap.
 */
function allocate(weights: number[], caps: number[], total: number): number[] {
  const counts = weights.map((w): number => (w > 0 ? 1 : 0));
  let left = total - counts.reduce((a, b) => a + b, 0);
  for (let round = 0; left > 0 && round < 20; round++) {
    const open = weights.map((w, i) => (w > 0 && counts[i] < caps[i] ? w : 0));
    const sum = open.reduce((a, b) => a + b, 0);
    if (sum === 0) break;
    const exact = open.map((w) => (left * w) / sum);
    const order: { i: number; frac: number }[] = [];
    let given = 0;
    exact.forEach((x, i) => {
      const whole = Math.min(Math.floor(x), caps[i] - counts[i]);
      counts[i] += whole;
      given += whole;
      if (open[i] > 0 && counts[i] < caps[i]) order.push({ i, frac: x - Math.floor(x) });
    });
    left -= given;
    order.sort((a, b) => b.frac - a.frac || a.i - b.i);
    for (const { i } of order) {
      if (left === 0) break;
      counts[i]++;
      left--;
    }
  }
  return counts;
}

const titleCase = (text: string) => text.replace(/(^|\s)([a-z])/g, (_, space: string, letter: string) => space + letter.toUpperCase());

const formats = new Map<string, Intl.NumberFormat>();
function formatMoney(amount: number, currency: string, locale: string, decimals: boolean): string {
  const key = `${locale}|${currency}|${decimals}`;
  let format = formats.get(key);
  if (!format) {
    const digits = decimals ? undefined : 0;
    format = new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits });
    formats.set(key, format);
  }
  return format.format(amount);
}

/** A round amount of the local currency for a USD figure: $10 → 10 €, ¥1,500. */
function roundLocal(usd: number, currency: string): number {
  const local = usd / (USD_PER_UNIT[currency] ?? 1);
  const step = Math.max(1, 10 ** Math.floor(Math.log10(local)) / 2);
  return Math.max(step, Math.round(local / step) * step);
}

/** The campaign-day density rises linearly towards `asOf`: the latest days get twice the earliest. */
function recentDay(rng: Rng, first: number, last: number): number {
  const x = -1 + Math.sqrt(1 + 3 * rng.next());
  return Math.min(last, first + Math.floor(x * (last - first + 1)));
}

export function startEmails(rng: Rng, shops: ShopSeed[], total: number, window: Window): EmailsPlan {
  const lastDay = window.last - 1;
  const reach = shops.map((shop) => Math.pow(shop.monthlyVisits, 0.4));
  const scale = (SENDER_SHARE * shops.length) / Math.max(1, reach.reduce((a, b) => a + b, 0));
  const firstDays = new Int32Array(shops.length);
  const weights = shops.map((shop, i) => {
    if (!rng.chance(Math.min(0.9, scale * reach[i]))) return 0;
    let first = Math.max(lastDay - HISTORY_DAYS + 1, dayOf(shop.createdAt) + 7);
    if (rng.chance(0.25)) first = rng.int(first, lastDay - 30);
    firstDays[i] = first;
    return rng.logNormal(1, 0.8) * Math.pow(reach[i], 0.6) * ((lastDay - first + 1) / HISTORY_DAYS);
  });
  if (!weights.some((w) => w > 0) && shops.length > 0) {
    weights[0] = 1;
    firstDays[0] = Math.max(lastDay - HISTORY_DAYS + 1, dayOf(shops[0].createdAt) + 7);
  }
  const caps = shops.map((_, i) => lastDay - firstDays[i] + 1);
  const emailCounts = allocate(weights, caps, total);
  const firstIds = new Int32Array(shops.length);
  for (let i = 0, next = 1; i < shops.length; i++) {
    firstIds[i] = next;
    next += emailCounts[i];
  }

  function emailsOf(shop: ShopSeed, count: number, firstId: number, firstDay: number): EmailSeed[] {
    const r = rng.fork(shop.id);
    const country = shop.countryCode ?? 'US';
    const spoken = shop.profile?.defaultLanguage ?? languageOf(country);
    const language: EmailLanguage = (EMAIL_LANGUAGES as readonly string[]).includes(spoken) ? (spoken as EmailLanguage) : 'en';
    const currency = shop.profile?.currency ?? shop.catalog?.currency ?? currencyOf(country);
    const locale = `${language}-${country}`;
    const categories = CATEGORIES_OF_TAXONOMY.get(shop.categories[0]) ?? ['Clothing'];
    const trade = r.pick(categories);
    const vocabulary = VOCABULARY[trade];
    const priceLevel = r.logNormal(1, 0.35);
    const priceOf = () => {
      const local = roundLocal(PRICE_USD[trade] * priceLevel * r.logNormal(1, 0.3), currency);
      return formatMoney(local >= 1000 ? local : local - r.pick([0.01, 0.05, 0.01, 0]), currency, locale, local < 1000);
    };
    const catalogue: ProductCard[] = vocabulary.products.map((product) => ({ product, title: titleCase(product), price: priceOf() }));
    const fromAddress = `${r.weighted(SENDERS)}@${shop.domain}`;
    const accent = r.pick(ACCENTS);
    const flowShare = r.float(0.1, 0.4);
    const offset = UTC_OFFSET[country] ?? 1;
    const windows = eventWindows(country, firstDay, lastDay);
    const flowsSent = new Map<EmailCategory, number>();

    const emails: (Omit<EmailSeed, 'id'> & { draw: number })[] = [];
    for (let n = 0; n < count; n++) {
      const automated = r.chance(flowShare);
      let category: EmailCategory;
      let event: EmailEventDef | null = null;
      let day: number;
      let hour: number;
      if (automated) {
        const open = AUTOMATED_CATEGORIES.filter(([name]) => (flowsSent.get(name) ?? 0) < (FLOW_LIMITS[name] ?? Infinity));
        category = r.weighted(open);
        flowsSent.set(category, (flowsSent.get(category) ?? 0) + 1);
        if (r.chance(0.85)) event = LIFECYCLE_EVENT.get(category) ?? null;
        day = category === 'welcome' ? Math.min(lastDay, firstDay + r.int(0, 6)) : recentDay(r, firstDay, lastDay);
        hour = r.float(7, 23);
      } else {
        const calendar: EventWindow | null = windows.length > 0 && r.chance(0.3) ? r.weighted(windows.map((w) => [w, w.weight] as const)) : null;
        if (calendar) {
          event = calendar.event;
          category = r.weighted(event.categories);
          day = r.int(calendar.first, calendar.last);
        } else {
          category = r.weighted(CAMPAIGN_CATEGORIES);
          day = recentDay(r, firstDay, lastDay);
          for (let tries = 0; tries < 4 && !r.chance(WEEKDAY_WEIGHTS[(day + 4) % 7] / 1.1); tries++) day = recentDay(r, firstDay, lastDay);
        }
        hour = r.weighted(CAMPAIGN_HOURS) + r.next();
      }
      let sentAt = day * DAY + Math.round((hour - offset) * 3_600_000) + r.int(0, 59) * 1000;
      if (sentAt > window.asOf) sentAt -= DAY;
      const promotion = r.weighted(PROMOTIONS_BY_CATEGORY[category]);
      const products = r.shuffle(catalogue.slice()).slice(0, category === 'abandoned-cart' ? r.int(1, 2) : category === 'back-in-stock' || category === 'product-launch' ? 1 : r.int(2, 3));
      const content = writeEmail(r, {
        language,
        brand: shop.name,
        domain: shop.domain,
        shopId: shop.id,
        category,
        promotion,
        event: event && event.category !== 'lifecycle' ? event : null,
        products,
        benefit: r.pick(vocabulary.benefits),
        money: (usd) => formatMoney(roundLocal(usd, currency), currency, locale, false),
        accent,
      });
      emails.push({
        draw: n,
        shop,
        fromAddress: category === 'review-request' && r.chance(0.5) ? `reviews@${shop.domain}` : fromAddress,
        sentAt,
        campaignType: automated ? 'automated' : 'campaign',
        language,
        subject: content.subject,
        preheader: content.preheader,
        body: content.body,
        html: r.chance(0.1) ? null : content.html,
        promotionTypeId: promotionTypeId(promotion),
        categoryId: emailCategoryId(category),
        eventId: event?.id ?? null,
      });
    }
    emails.sort((a, b) => a.sentAt - b.sentAt || a.draw - b.draw);
    return emails.map(({ draw: _, ...email }, i) => ({ id: firstId + i, ...email }));
  }

  return {
    emailCounts,
    totals: {
      email_promotion_types: PROMOTION_TYPES.length,
      email_categories: EMAIL_CATEGORIES.length,
      email_events: EMAIL_EVENTS.length,
      emails: emailCounts.reduce((a, b) => a + b, 0),
    },
    shopsBetween(start, end) {
      const emails: EmailSeed[] = [];
      for (let i = start; i < end; i++) {
        if (emailCounts[i] > 0) for (const email of emailsOf(shops[i], emailCounts[i], firstIds[i], firstDays[i])) emails.push(email);
      }
      return { first: start === 0, shops: shops.slice(start, end), emails };
    },
  };
}

/** Characters as PostgreSQL counts them (code points), so `bodyLength = length(body)`. */
const codePoints = (text: string) => {
  let count = 0;
  for (const _ of text) count++;
  return count;
};

export function emailTables(slice: EmailSlice): TableRows[] {
  const catalogues: TableRows[] = slice.first
    ? [
        define<string>('email_promotion_types', PROMOTION_TYPES.length, PROMOTION_TYPES, [
          ['id', 'int4', (name) => PROMOTION_TYPES.indexOf(name as never) + 1],
          ['name', 'text', (name) => name],
        ]),
        define<string>('email_categories', EMAIL_CATEGORIES.length, EMAIL_CATEGORIES, [
          ['id', 'int4', (name) => EMAIL_CATEGORIES.indexOf(name as never) + 1],
          ['name', 'text', (name) => name],
        ]),
        define<EmailEventDef>('email_events', EMAIL_EVENTS.length, EMAIL_EVENTS, [
          ['id', 'int4', (event) => event.id],
          ['name', 'text', (event) => event.name],
          ['category', 'text', (event) => event.category],
        ]),
      ]
    : [];
  return [
    ...catalogues,
    define<EmailSeed>('emails', slice.emails.length, slice.emails, [
      ['id', 'int4', (e) => e.id],
      ['shopId', 'uuid', (e) => e.shop.id],
      ['fromAddress', 'text', (e) => e.fromAddress],
      ['fromName', 'text', (e) => e.shop.name],
      ['sentAt', 'timestamptz', (e) => isoTimestamp(e.sentAt)],
      ['campaignType', 'text', (e) => e.campaignType],
      ['language', 'text', (e) => e.language],
      ['subject', 'text', (e) => e.subject],
      ['preheader', 'text', (e) => e.preheader],
      ['body', 'text', (e) => e.body],
      ['bodyLength', 'int4', (e) => codePoints(e.body)],
      ['html', 'text', (e) => e.html],
      ['screenshotUrl', 'text', (e) => (e.html === null ? null : `/media/emails/screenshots/${e.id}.jpg`)],
      ['promotionTypeId', 'int4', (e) => e.promotionTypeId],
      ['categoryId', 'int4', (e) => e.categoryId],
      ['eventId', 'int4', (e) => e.eventId],
    ]),
  ];
}

import { DAY } from './time.js';

// The fixed email classification catalogues (stable ids) and the marketing calendar: when each event's emails go out.

export const PROMOTION_TYPES = [
  'percent-off',
  'dollar-off',
  'free-shipping',
  'bogo',
  'gift-with-purchase',
  'bundle',
  'tiered-discount',
  'early-access',
  'loyalty-points',
  'giveaway',
  'no-promotion',
] as const;
export type PromotionType = (typeof PROMOTION_TYPES)[number];

export const EMAIL_CATEGORIES = [
  'newsletter',
  'product-launch',
  'sale',
  'abandoned-cart',
  'back-in-stock',
  'welcome',
  'loyalty',
  'survey',
  'review-request',
  'post-purchase',
  'win-back',
  'birthday',
  'giveaway',
  'gift-guide',
] as const;
export type EmailCategory = (typeof EMAIL_CATEGORIES)[number];

/** Ids are 1-based positions in the catalogues. */
export const promotionTypeId = (name: PromotionType) => PROMOTION_TYPES.indexOf(name) + 1;
export const emailCategoryId = (name: EmailCategory) => EMAIL_CATEGORIES.indexOf(name) + 1;

/** Categories sent by automated flows (triggered by the subscriber), the others by campaigns. */
export const AUTOMATED_CATEGORIES: readonly (readonly [EmailCategory, number])[] = [
  ['welcome', 22],
  ['abandoned-cart', 24],
  ['back-in-stock', 8],
  ['post-purchase', 14],
  ['review-request', 12],
  ['win-back', 12],
  ['birthday', 8],
];

export const CAMPAIGN_CATEGORIES: readonly (readonly [EmailCategory, number])[] = [
  ['newsletter', 30],
  ['product-launch', 22],
  ['sale', 32],
  ['loyalty', 6],
  ['survey', 3],
  ['giveaway', 3],
  ['gift-guide', 4],
];

type Weights<T> = readonly (readonly [T, number])[];

/** The offers each kind of email runs. */
export const PROMOTIONS_BY_CATEGORY: Record<EmailCategory, Weights<PromotionType>> = {
  newsletter: [['no-promotion', 70], ['percent-off', 12], ['free-shipping', 10], ['gift-with-purchase', 4], ['bundle', 4]],
  'product-launch': [['no-promotion', 50], ['early-access', 20], ['percent-off', 15], ['free-shipping', 10], ['gift-with-purchase', 5]],
  sale: [['percent-off', 45], ['dollar-off', 12], ['bogo', 10], ['bundle', 8], ['tiered-discount', 10], ['free-shipping', 10], ['gift-with-purchase', 5]],
  'abandoned-cart': [['no-promotion', 50], ['percent-off', 30], ['free-shipping', 20]],
  'back-in-stock': [['no-promotion', 85], ['free-shipping', 15]],
  welcome: [['percent-off', 60], ['dollar-off', 15], ['free-shipping', 15], ['no-promotion', 10]],
  loyalty: [['loyalty-points', 50], ['early-access', 25], ['percent-off', 15], ['gift-with-purchase', 10]],
  survey: [['no-promotion', 60], ['giveaway', 25], ['percent-off', 15]],
  'review-request': [['no-promotion', 70], ['loyalty-points', 15], ['percent-off', 15]],
  'post-purchase': [['no-promotion', 70], ['percent-off', 20], ['loyalty-points', 10]],
  'win-back': [['percent-off', 60], ['dollar-off', 20], ['free-shipping', 20]],
  birthday: [['percent-off', 60], ['gift-with-purchase', 25], ['dollar-off', 15]],
  giveaway: [['giveaway', 100]],
  'gift-guide': [['no-promotion', 45], ['percent-off', 25], ['free-shipping', 20], ['gift-with-purchase', 10]],
};

export type EventCategory = 'holiday' | 'retail event' | 'seasonal' | 'lifecycle';

export type EmailEventDef = {
  id: number;
  name: string;
  category: EventCategory;
  /** The event's day (day number) in `year` for a shop selling from `country`, or null when the country does not observe it. */
  day?: (year: number, country: string) => number | null;
  /** The emails go out from `from` to `to` days around that day. */
  from: number;
  to: number;
  /** How much of a shop's campaign calendar the event takes. */
  weight: number;
  /** The kinds of email sent for it (lifecycle events: the flow's category). */
  categories: Weights<EmailCategory>;
};

const dayNumber = (year: number, month: number, date: number) => Math.floor(Date.UTC(year, month, date) / DAY);
const weekday = (day: number) => (day + 4) % 7; // 1970-01-01 was a Thursday

/** The `n`th `wd` (0 = Sunday) of a month; n = -1 for the last one. */
function nthWeekday(year: number, month: number, wd: number, n: number): number {
  if (n < 0) {
    const last = dayNumber(year, month + 1, 0);
    return last - ((weekday(last) - wd + 7) % 7);
  }
  const first = dayNumber(year, month, 1);
  return first + ((wd - weekday(first) + 7) % 7) + (n - 1) * 7;
}

/** Western Easter Sunday (anonymous Gregorian algorithm). */
export function easter(year: number): number {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  return dayNumber(year, month - 1, ((h + l - 7 * m + 114) % 31) + 1);
}

const SOUTHERN = new Set(['AU', 'NZ', 'BR', 'ZA']);
const NON_WESTERN = new Set(['JP', 'IN', 'AE', 'SG']);
const only = (countries: string[], rule: (year: number) => number) => (year: number, country: string) => (countries.includes(country) ? rule(year) : null);
const except = (countries: Set<string>, rule: (year: number) => number) => (year: number, country: string) => (countries.has(country) ? null : rule(year));
const fixed = (month: number, date: number) => (year: number) => dayNumber(year, month, date);
const blackFriday = (year: number) => nthWeekday(year, 10, 4, 4) + 1;

function mothersDay(year: number, country: string): number | null {
  if (country === 'GB' || country === 'IE') return easter(year) - 21;
  if (country === 'FR') return nthWeekday(year, 4, 0, -1);
  if (country === 'ES' || country === 'PT') return nthWeekday(year, 4, 0, 1);
  if (NON_WESTERN.has(country) && country !== 'JP') return null;
  return nthWeekday(year, 4, 0, 2);
}

function fathersDay(year: number, country: string): number | null {
  if (country === 'IT' || country === 'ES' || country === 'PT') return dayNumber(year, 2, 19);
  if (country === 'DE') return easter(year) + 39;
  if (country === 'AU' || country === 'NZ') return nthWeekday(year, 8, 0, 1);
  if (country === 'AT' || country === 'BE') return nthWeekday(year, 5, 0, 2);
  if (NON_WESTERN.has(country) && country !== 'JP') return null;
  return nthWeekday(year, 5, 0, 3);
}

const SALES: Weights<EmailCategory> = [['sale', 100]];
const DEALS: Weights<EmailCategory> = [['sale', 85], ['newsletter', 8], ['loyalty', 7]];
const GIFTING: Weights<EmailCategory> = [['sale', 45], ['gift-guide', 40], ['product-launch', 15]];
const OCCASION: Weights<EmailCategory> = [['sale', 55], ['newsletter', 25], ['product-launch', 20]];

export const EMAIL_EVENTS: readonly EmailEventDef[] = [
  { id: 1, name: 'Black Friday', category: 'retail event', day: (year) => blackFriday(year), from: -7, to: 2, weight: 14, categories: DEALS },
  { id: 2, name: 'Cyber Monday', category: 'retail event', day: (year) => blackFriday(year) + 3, from: -1, to: 1, weight: 6, categories: DEALS },
  { id: 3, name: 'Christmas', category: 'holiday', day: except(NON_WESTERN, fixed(11, 25)), from: -24, to: -1, weight: 11, categories: GIFTING },
  { id: 4, name: "Valentine's Day", category: 'holiday', day: (year) => dayNumber(year, 1, 14), from: -14, to: 0, weight: 5, categories: GIFTING },
  { id: 5, name: "Mother's Day", category: 'holiday', day: mothersDay, from: -14, to: 0, weight: 5, categories: GIFTING },
  { id: 6, name: "Father's Day", category: 'holiday', day: fathersDay, from: -12, to: 0, weight: 3, categories: GIFTING },
  { id: 7, name: 'Easter', category: 'holiday', day: except(NON_WESTERN, easter), from: -10, to: 1, weight: 3, categories: OCCASION },
  { id: 8, name: 'Halloween', category: 'holiday', day: (year) => dayNumber(year, 9, 31), from: -12, to: 0, weight: 3, categories: OCCASION },
  { id: 9, name: 'Back to School', category: 'seasonal', day: except(SOUTHERN, fixed(7, 25)), from: -24, to: 14, weight: 2, categories: OCCASION },
  { id: 10, name: 'Singles Day', category: 'retail event', day: (year) => dayNumber(year, 10, 11), from: -3, to: 0, weight: 1, categories: SALES },
  { id: 11, name: 'Prime Day', category: 'retail event', day: (year) => nthWeekday(year, 6, 2, 2), from: -3, to: 1, weight: 1.5, categories: SALES },
  { id: 12, name: 'New Year', category: 'holiday', day: (year) => dayNumber(year, 0, 1), from: -3, to: 2, weight: 2, categories: [['newsletter', 50], ['sale', 50]] },
  { id: 13, name: 'Summer Sale', category: 'seasonal', day: except(SOUTHERN, fixed(6, 1)), from: -14, to: 40, weight: 5, categories: SALES },
  { id: 14, name: 'Winter Sale', category: 'seasonal', day: except(SOUTHERN, fixed(0, 8)), from: -5, to: 24, weight: 4, categories: SALES },
  { id: 15, name: 'Spring Sale', category: 'seasonal', day: except(SOUTHERN, fixed(2, 20)), from: -5, to: 14, weight: 2, categories: SALES },
  { id: 16, name: 'Boxing Day', category: 'retail event', day: only(['GB', 'IE', 'CA', 'AU', 'NZ'], fixed(11, 26)), from: 0, to: 5, weight: 4, categories: SALES },
  { id: 17, name: 'Thanksgiving', category: 'holiday', day: only(['US'], (year) => nthWeekday(year, 10, 4, 4)), from: -5, to: 0, weight: 2, categories: OCCASION },
  { id: 18, name: 'Memorial Day', category: 'retail event', day: only(['US'], (year) => nthWeekday(year, 4, 1, -1)), from: -6, to: 0, weight: 2, categories: SALES },
  { id: 19, name: 'Independence Day', category: 'holiday', day: only(['US'], fixed(6, 4)), from: -6, to: 0, weight: 2, categories: OCCASION },
  { id: 20, name: 'Labor Day', category: 'retail event', day: only(['US'], (year) => nthWeekday(year, 8, 1, 1)), from: -5, to: 0, weight: 2, categories: SALES },
  { id: 21, name: "St. Patrick's Day", category: 'holiday', day: only(['IE', 'US', 'GB'], fixed(2, 17)), from: -7, to: 0, weight: 1, categories: OCCASION },
  { id: 22, name: 'Welcome series', category: 'lifecycle', from: 0, to: 0, weight: 0, categories: [['welcome', 100]] },
  { id: 23, name: 'Abandoned cart', category: 'lifecycle', from: 0, to: 0, weight: 0, categories: [['abandoned-cart', 100]] },
  { id: 24, name: 'Back in stock', category: 'lifecycle', from: 0, to: 0, weight: 0, categories: [['back-in-stock', 100]] },
  { id: 25, name: 'Post-purchase', category: 'lifecycle', from: 0, to: 0, weight: 0, categories: [['post-purchase', 60], ['review-request', 40]] },
  { id: 26, name: 'Win-back', category: 'lifecycle', from: 0, to: 0, weight: 0, categories: [['win-back', 100]] },
  { id: 27, name: 'Birthday', category: 'lifecycle', from: 0, to: 0, weight: 0, categories: [['birthday', 100]] },
];

/** The lifecycle event an automated email of `category` belongs to. */
export const LIFECYCLE_EVENT = new Map<EmailCategory, EmailEventDef>(
  EMAIL_EVENTS.filter((event) => event.category === 'lifecycle').flatMap((event) => event.categories.map(([category]) => [category, event] as const)),
);

/** A calendar event's send window that overlaps [first, last] (day numbers), clipped to it. */
export type EventWindow = { event: EmailEventDef; first: number; last: number; weight: number };

/** The calendar events a shop of `country` emails about between days `first` and `last`. */
export function eventWindows(country: string, first: number, last: number): EventWindow[] {
  const fromYear = new Date(first * DAY).getUTCFullYear();
  const toYear = new Date(last * DAY).getUTCFullYear() + 1;
  const windows: EventWindow[] = [];
  for (const event of EMAIL_EVENTS) {
    if (!event.day) continue;
    for (let year = fromYear; year <= toYear; year++) {
      const day = event.day(year, country);
      if (day === null) continue;
      const start = Math.max(first, day + event.from);
      const end = Math.min(last, day + event.to);
      if (start > end) continue;
      const share = (end - start + 1) / (event.to - event.from + 1);
      windows.push({ event, first: start, last: end, weight: event.weight * share });
    }
  }
  return windows;
}

import { clip, compactAd, continuation, type AdRow } from './compact.js';
import type { Json, TaskDefinition } from './frame.js';

// analyze_brand_changes: what changed for a brand between two dates, for agents: one call of the brand's changes route
// (GET /v1/brandtrackers/{brandtrackerId}/changes, /v1/advertisers/{advertiserId}/changes or /v1/shops/{shopId}/changes,
// whichever id is given), answered compactly: each section's exact total, its newest items (ids, titles, what changed)
// with their texts cut, their ad or product in a few fields when `expand` asks for it, and the route tool call that
// pages a section on.

const SECTIONS = [
  'adsStarted', 'adsStopped', 'copyChanges', 'hookChanges', 'landingPageChanges', 'newLandingPages', 'newProducts',
  'priceChanges', 'stockChanges', 'rankMoves', 'appsInstalled', 'appsRemoved',
] as const;

const params = {
  brandtrackerId: { type: 'string', optional: true, maxLength: 64, description: "One of the workspace's brandtrackers (uuid): its Facebook page and shops. Give exactly one of brandtrackerId, advertiserId and shopId." },
  advertiserId: { type: 'string', optional: true, maxLength: 128, description: "An advertiser's Facebook page id: its ads." },
  shopId: { type: 'string', optional: true, maxLength: 64, description: "A shop's id (uuid): its products and apps." },
  from: { type: 'string', optional: true, maxLength: 40, description: 'Start of the window: a date (YYYY-MM-DD) or an ISO 8601 date-time, inclusive. Default: 30 days before `to`.' },
  to: { type: 'string', optional: true, maxLength: 40, description: 'End of the window: a date (that day included) or a date-time (exclusive). Default: now. At most 366 days after `from`.' },
  sections: { type: 'strings', values: SECTIONS, maxItems: SECTIONS.length, description: 'Only these kinds of change (all when omitted).' },
  limit: { type: 'integer', description: 'Newest items to show per section, 1..20 (the totals count them all).', minimum: 1, maximum: 20, default: 5 },
  expand: { type: 'strings', values: ['ads', 'products'], maxItems: 2, description: "Also each item's ad (`ads`: format, reach, text, landing page) or product (`products`: title, price). Items always carry their ids and titles." },
} as const;

const SUBJECTS = [
  { param: 'brandtrackerId', field: 'Query.brandtrackerChanges', tool: 'brandtracker_changes' },
  { param: 'advertiserId', field: 'Query.advertiserChanges', tool: 'advertiser_changes' },
  { param: 'shopId', field: 'Query.shopChanges', tool: 'shop_changes' },
] as const;

type Section = { total: number; hasMore: boolean; items: Json[] };
type ProductRow = { id: string; title: string; price: { amount: number; currency: string } };

/** An item with its texts cut, and its ad or product in a few fields. */
function compactItem(item: Json): Json {
  const { ad, product, ...rest } = item as Json & { ad?: AdRow | null; product?: ProductRow | null };
  const cut = (value: unknown): unknown =>
    typeof value === 'string' ? clip(value) : value && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cut(v)])) : value;
  return {
    ...(cut(rest) as Json),
    ...(ad && { ad: compactAd(ad) }),
    ...(product && { product: { title: clip(product.title), price: product.price.amount, currency: product.price.currency } }),
  };
}

export const analyzeBrandChanges: TaskDefinition<typeof params> = {
  name: 'analyze_brand_changes',
  summary:
    "What changed for a brand between two dates (default: the last 30 days), in one call of its changes route (GET /v1/brandtrackers/{brandtrackerId}/changes, /v1/advertisers/{advertiserId}/changes or /v1/shops/{shopId}/changes): ads started and stopped, copy, hook and landing-page changes, new landing pages and products, price and stock changes, rank moves, apps installed and removed. Each kind with its exact total and its newest items, compact; continueWith names the route tool call that pages a kind on.",
  params,
  calls: SUBJECTS.map(({ field }) => ({ field })),
  async run(api, input) {
    const given = SUBJECTS.filter((subject) => input[subject.param] !== undefined);
    if (given.length !== 1) return api.fail('validation_error', 'Name the brand with exactly one of brandtrackerId, advertiserId and shopId.');
    const [subject] = given;
    const { from, to, sections, limit, expand } = input;
    const args: Json = { [subject.param]: input[subject.param], limit, ...(from && { from }), ...(to && { to }), ...(sections.length && { sections }), ...(expand.length && { expand }) };
    const answer = (await api.call(subject.field, args)).data as Json;
    const window = { from: answer.from, to: answer.to };
    const changes = Object.fromEntries(
      SECTIONS.flatMap((name) => {
        const section = answer[name] as Section | null;
        if (!section) return [];
        const more = continuation(subject.tool, { [subject.param]: input[subject.param], ...window, sections: [name], limit: 50, offset: section.items.length, ...(expand.length && { expand }) }, section.items.length, section.total);
        return [[name, { total: section.total, items: section.items.map(compactItem), ...(more && { continueWith: more }) }]];
      }),
    );
    return { brand: { brandtrackerId: answer.brandtrackerId, advertiserIds: answer.advertiserIds, shopIds: answer.shopIds }, ...window, changes };
  },
};

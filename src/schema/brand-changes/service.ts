import { queryFromInfo } from '@pothos/plugin-prisma';
import { Kind, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import type { Context } from '../../context.js';
import { eventIdOf } from '../../data/events.js';
import { noticesOf } from '../../db/notices.js';
import { notFound, validationError } from '../../errors.js';
import { adsByIds, DEFAULT_CPM, withCpm } from '../ads/service.js';
import type { AdSummaryRow } from '../ads/types.js';
import { hasEuAccess, productsByIds, withView } from '../products/service.js';
import type { ProductRow } from '../products/types.js';
import { DAY_MS } from '../shared/time.js';
import { brandRevision, findChanges, SECTIONS, type Found, type FoundRow, type Section, type Subject, type Window } from './service/statement.js';
import { envNumber } from '../../config.js';

// A brand's changes between two dates (issue #37), the public face of the domain: the window from the arguments,
// the one statement of service/statement.ts (the brand, each section's count and page, the items' titles), then, only
// with `expand`, the Ad summaries and products its items name (one statement each, with the fields the request selects).
// An answer of the statement is kept for a while (`KEEP`) and served again, with the window it read, while the brand's
// recorded events are the same: heard from the database's notices (src/db/notices.ts, no statement at all) where they
// are heard, else checked by `brandRevision` (one small statement instead of twelve counts and pages).

export { SECTIONS, type Section, type Window };

/** The window when none is given: the 30 days before now. */
export const DEFAULT_DAYS = 30;
/** The longest window. */
export const MAX_SPAN_DAYS = 366;
/** Items per section: 1..50, default 10. */
export const ITEM_LIMITS = { defaultLimit: 10, maxLimit: 50 } as const;
/** How far a section's items can be paged with `offset`. */
export const MAX_OFFSET = 10_000;

/**
 * How long an answer is kept (BRAND_CHANGES_CACHE_SECONDS, default 60; 0: never), and how much (per database: at most
 * 1,000 answers and 10,000 items in all, ~10 MB; the least recently used dropped first). A kept answer is served only
 * while the brand is the same (known, its pages and shops) and its recorded events' revision is the one the answer
 * was read with (heard from the database's notices, or checked by a statement: findOrReuse); it carries the window it read, so an answer whose window ends at "now" says it ended up to that long
 * ago. The writers raise the brand's revision with every change of its ads and products, events or not (migration
 * 0043); only rows changed outside them (by hand) wait for the answer to be that old.
 */
export const KEEP = { ms: envNumber('BRAND_CHANGES_CACHE_SECONDS', 60, { min: 0, max: 86_400 }) * 1000, answers: 1_000, items: 10_000 } as const;

/**
 * An answer of the statement; `compact`: the answer as it shows without expansions, once built;
 * `mark`: the database's notices' mark taken before it was read (src/db/notices.ts), null when they were not heard.
 */
type Kept = { at: number; window: Window; found: Found; mark: number | null; compact?: BrandChanges };

/**
 * The notices that change a kept answer (migration 0044): its pages' and shops' (an advertiser's or a shop's own
 * among them: the statement's subject), and its brandtracker's.
 */
function noticeKeys(subject: Subject, found: Found): string[] {
  const keys = [...found.pages, ...found.shops].map((key) => `k:${key}`);
  if (subject.kind === 'brandtracker') keys.push(`b:${subject.brandtrackerId}`);
  return keys;
}

/** What an answer costs the budget of KEEP.items: its items, and one for the rest of it. */
const sizeOf = (answer: Kept) => 1 + answer.found.rows.length;

/** The kept answers of one database, by subject and arguments, least recently used first, within KEEP. */
class KeptAnswers {
  private readonly answers = new Map<string, Kept>();
  private items = 0;

  /** The answer kept under `key` if it is young enough (now the most recently used). */
  get(key: string): Kept | undefined {
    const answer = this.answers.get(key);
    if (!answer) return undefined;
    this.drop(key);
    if (Date.now() - answer.at >= KEEP.ms) return undefined;
    this.answers.set(key, answer);
    this.items += sizeOf(answer);
    return answer;
  }

  /** Keeps `answer`, then drops the answers too old to serve and, past the bounds, the least recently used. */
  set(key: string, answer: Kept): void {
    this.drop(key);
    if (sizeOf(answer) > KEEP.items) return;
    this.answers.set(key, answer);
    this.items += sizeOf(answer);
    const oldest = Date.now() - KEEP.ms;
    for (const [other, kept] of this.answers) {
      if (kept.at <= oldest || this.items > KEEP.items || this.answers.size > KEEP.answers) this.drop(other);
    }
  }

  drop(key: string): void {
    const answer = this.answers.get(key);
    if (!answer) return;
    this.answers.delete(key);
    this.items -= sizeOf(answer);
  }
}

/** Each database's (its pool's) kept answers. */
const keptBy = new WeakMap<object, KeptAnswers>();

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((value, index) => value === b[index]);

/**
 * The statement's answer for the request: a kept one while the brand and its events' revision are unchanged (then
 * with the window it read), else a new one (kept when the brand is known). Where the database's notices are heard
 * (src/db/notices.ts: PostgreSQL without read replicas), a kept answer no notice has named since it was read is served
 * without a statement, and one a notice named is read anew; elsewhere (the embedded database, replicas, the notices'
 * connection lost) each kept answer is checked by brandRevision's statement.
 */
async function findOrReuse(pool: Context['pool'], key: string, request: Parameters<typeof findChanges>[1]): Promise<Kept> {
  if (KEEP.ms === 0) return { at: Date.now(), window: request.window, found: await findChanges(pool, request), mark: null };
  let kept = keptBy.get(pool);
  if (!kept) keptBy.set(pool, (kept = new KeptAnswers()));
  const notices = noticesOf(pool);
  const entry = kept.get(key);
  // Current: the notices, listening since it was read, named none of its keys. Stale: a notice heard since it was read
  // named one (whether they still listen or not). Neither (read while the notices were not heard, or they were lost
  // since): the revision statement decides.
  const keys = entry ? noticeKeys(request.subject, entry.found) : [];
  const stale = entry?.mark != null && notices !== undefined && notices.heardSince(entry.mark, keys);
  const current = entry?.mark != null && notices !== undefined && !notices.changedSince(entry.mark, keys);
  if (entry && current) return entry;
  if (entry && !stale) {
    // Marked before the revision is read: an answer the revision confirms is then current as of the mark, and the
    // next request needs no statement once the notices are heard again.
    const mark = notices?.mark() ?? null;
    const now = await brandRevision(pool, request.subject);
    if (!now.known) {
      kept.drop(key);
      return { at: Date.now(), window: request.window, found: { ...now, totals: {}, rows: [] }, mark: null };
    }
    if (now.revision === entry.found.revision && sameList(now.pages, entry.found.pages) && sameList(now.shops, entry.found.shops)) {
      entry.mark = mark;
      return entry;
    }
  }
  // Marked before the statement reads: a notice of a change it does not see comes after the mark.
  const mark = notices?.mark() ?? null;
  const at = Date.now();
  const found = await findChanges(pool, request);
  const answer: Kept = { at, window: request.window, found, mark };
  if (found.known) kept.set(key, answer);
  else kept.drop(key);
  return answer;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isDate = (value: string) => /^\d{4}-\d\d-\d\d$/.test(value);

/**
 * The window of `from` and `to` (validated as dates or ISO 8601 date-times): a date-time is an instant, `from`
 * inclusive and `to` exclusive; a date is its UTC day, `from` from its start, `to` through its end. Defaults: `to` now,
 * `from` 30 days before `to`. A 400 names `from` when it is after `to` or more than 366 days before it.
 */
export function windowOf(args: { from?: string | null; to?: string | null }, now = new Date()): Window {
  const day = (value: string) => new Date(`${value}T00:00:00Z`);
  const to = args.to ? (isDate(args.to) ? new Date(day(args.to).getTime() + DAY_MS) : new Date(args.to)) : now;
  const from = args.from ? (isDate(args.from) ? day(args.from) : new Date(args.from)) : new Date(to.getTime() - DEFAULT_DAYS * DAY_MS);
  if (from > to) throw validationError([{ argument: 'from', expected: [`from must be on or before to (${to.toISOString()})`] }]);
  if (to.getTime() - from.getTime() > MAX_SPAN_DAYS * DAY_MS) {
    throw validationError([{ argument: 'from', expected: [`from must be at most ${MAX_SPAN_DAYS} days before to (${to.toISOString()})`] }]);
  }
  return { from, to };
}

/** What an item can carry beyond its ids and figures: its ad's Ad summary (`ads`), its product (`products`). */
export const EXPANSIONS = ['ads', 'products'] as const;
export type Expansion = (typeof EXPANSIONS)[number];

type Side = Record<string, unknown> | null | undefined;
/** What an event recorded: the fields before and after the change (`before` null: new), and more per type. */
type ChangeData = { before?: Side; after?: Side; [key: string]: unknown };

// Each section's items, shaped as the answer shows them (one property per field, in the schema's order of the
// fields): the schema exposes them as they are, so that executing an answer reads properties, not a resolver a field.

/** What an item about an ad carries: its id and title, and its Ad summary with `expand=ads`. */
type AdOf = { adId: string; adTitle: string | null; ad: AdSummaryRow | null };
/** What an item about a product carries: its ids and title, and the product with `expand=products`. */
type ProductOf = { productId: string; shopId: string; productTitle: string | null; product: ProductRow | null };
/** What an item that comes from an event carries: when the change was seen, and the event (`evt_…`). */
type EventOf = { occurredAt: Date; eventId: string };

export type CopyText = { title: string | null; body: string | null };
export type SectionItems = {
  adsStarted: { at: Date } & AdOf;
  adsStopped: { at: Date } & AdOf;
  copyChanges: EventOf & AdOf & { before: CopyText; after: CopyText };
  hookChanges: EventOf & AdOf & { before: string | null; after: string | null };
  landingPageChanges: EventOf & AdOf & { before: string | null; after: string | null };
  newLandingPages: { domain: string; firstSeenAt: Date };
  newProducts: { createdAt: Date } & ProductOf;
  priceChanges: EventOf & ProductOf & { before: number | null; after: number | null; currency: string | null };
  stockChanges: EventOf & ProductOf & { available: boolean };
  rankMoves: EventOf & AdOf & { before: number | null; after: number | null };
  appsInstalled: EventOf & { shopId: string; appId: number | null; appName: string | null };
  appsRemoved: EventOf & { shopId: string; appId: number | null; appName: string | null };
};

/** A section: its exact count in the window, whether items follow the page, and the page. */
export type ChangeSection<S extends Section = Section> = { total: number; hasMore: boolean; items: SectionItems[S][] };

export type BrandChanges = {
  brandtrackerId: string | null;
  advertiserIds: string[];
  shopIds: string[];
  from: Date;
  to: Date;
} & { [S in Section]: ChangeSection<S> | null };

export type ChangesArgs = {
  from?: string | null; to?: string | null; sections?: readonly Section[] | null; limit?: number | null; offset?: number | null; expand?: readonly Expansion[] | null;
};

const AD_SECTIONS = new Set<Section>(['adsStarted', 'adsStopped', 'copyChanges', 'hookChanges', 'landingPageChanges', 'rankMoves']);
const PRODUCT_SECTIONS = new Set<Section>(['newProducts', 'priceChanges', 'stockChanges']);

/** Whether the request selects the field at `path` below the resolved field (in any of its fragments). */
function selects(info: GraphQLResolveInfo, path: readonly string[]): boolean {
  const within = (set: SelectionSetNode | undefined, rest: readonly string[]): boolean => {
    if (!set) return false;
    return set.selections.some((node) => {
      if (node.kind === Kind.FIELD) return node.name.value === rest[0] && (rest.length === 1 || within(node.selectionSet, rest.slice(1)));
      if (node.kind === Kind.INLINE_FRAGMENT) return within(node.selectionSet, rest);
      return within(info.fragments[node.name.value]?.selectionSet, rest);
    });
  };
  return info.fieldNodes.some((node) => within(node.selectionSet, path));
}

/** The fields the request selects under each section's items' `ad` or `product`: one load per distinct selection. */
async function loadBy<T extends { id: string }>(
  rows: FoundRow[], sections: Set<Section>, idOf: (row: FoundRow) => string | null, selectionAt: (section: Section) => object, load: (ids: string[], selection: object) => Promise<T[]>,
): Promise<Map<string, T>> {
  const groups = new Map<string, { selection: object; ids: Set<string> }>();
  const keyOf = new Map<Section, string>();
  for (const row of rows) {
    const id = idOf(row);
    if (!sections.has(row.section) || id === null) continue;
    let key = keyOf.get(row.section);
    if (key === undefined) {
      const selection = selectionAt(row.section);
      key = JSON.stringify(selection);
      keyOf.set(row.section, key);
      if (!groups.has(key)) groups.set(key, { selection, ids: new Set() });
    }
    groups.get(key)!.ids.add(id);
  }
  const loaded = await Promise.all([...groups.values()].map((group) => load([...group.ids], group.selection)));
  return new Map(loaded.flat().map((row) => [row.id, row]));
}

/** The changes of a brandtracker of the caller's workspace, an advertiser or a shop in the window. */
export async function brandChanges(context: Context, info: GraphQLResolveInfo, subject: Subject, args: ChangesArgs): Promise<BrandChanges> {
  if (subject.kind === 'shop' && !UUID.test(subject.shopId)) throw notFound(`Shop "${subject.shopId}"`);
  if (subject.kind === 'shop') subject = { ...subject, shopId: subject.shopId.toLowerCase() };
  const sections = args.sections?.length ? [...new Set(args.sections)] : [...SECTIONS];
  const limit = args.limit ?? ITEM_LIMITS.defaultLimit;
  const offset = args.offset ?? 0;
  const key = JSON.stringify([subject, args.from ?? null, args.to ?? null, sections, limit, offset]);
  const answer = await findOrReuse(context.pool, key, { subject, window: windowOf(args), sections, limit, offset });
  const found = answer.found;
  if (!found.known) {
    const what = subject.kind === 'brandtracker' ? `Brandtracker "${subject.brandtrackerId}"` : subject.kind === 'advertiser' ? `Advertiser "${subject.advertiserId}"` : `Shop "${subject.shopId}"`;
    throw notFound(what);
  }
  // The Ad summaries and products only when asked for (`expand`) and selected: the compact answer is the statement's.
  const expand = new Set(args.expand ?? []);
  const wanted = (expansion: Expansion, field: 'ad' | 'product', kinds: Set<Section>) =>
    expand.has(expansion) ? new Set(sections.filter((section) => kinds.has(section) && selects(info, [section, 'items', field]))) : new Set<Section>();
  const adSections = wanted('ads', 'ad', AD_SECTIONS);
  const productSections = wanted('products', 'product', PRODUCT_SECTIONS);
  const selectionAt = (field: 'ad' | 'product') => (section: Section) => queryFromInfo({ context, info, path: [section, 'items', field] });
  const productRows = found.rows.filter((row) => productSections.has(row.section) && row.productId !== null);
  const [ads, products, euAccess] = await Promise.all([
    loadBy(found.rows, adSections, (row) => row.adId, selectionAt('ad'), async (ids, selection) => withCpm(await adsByIds(context.prisma, ids, selection), DEFAULT_CPM)),
    loadBy(found.rows, productSections, (row) => row.productId, selectionAt('product'), (ids, selection) => productsByIds(context.prisma, ids, selection)),
    productRows.length ? hasEuAccess(context) : Promise.resolve(false),
  ]);
  withView([...products.values()], { cpm: DEFAULT_CPM, euAccess });
  // Without Ad summaries or products, the answer is the same for every request it serves: built once.
  const compact = ads.size === 0 && products.size === 0;
  if (compact && answer.compact) return answer.compact;
  const changes: BrandChanges = {
    brandtrackerId: subject.kind === 'brandtracker' ? subject.brandtrackerId : null,
    advertiserIds: found.pages,
    shopIds: found.shops,
    from: answer.window.from,
    to: answer.window.to,
    ...sectionsOf(found, sections, offset, ads, products),
  };
  if (compact) answer.compact = changes;
  return changes;
}

const text = (side: Side, key: string) => (side && typeof side[key] === 'string' ? (side[key] as string) : null);
const number = (side: Side, key: string) => (side && typeof side[key] === 'number' ? (side[key] as number) : null);
type App = { id?: unknown; name?: unknown } | undefined;

/** An item of each section from its row of the statement, with its ad or product where loaded. */
const ITEMS: { [S in Section]: (row: FoundRow, data: ChangeData, ads: Map<string, AdSummaryRow>, products: Map<string, ProductRow>) => SectionItems[S] } = {
  adsStarted: (row, _data, ads) => ({ at: new Date(row.at), ...adOf(row, ads) }),
  adsStopped: (row, _data, ads) => ({ at: new Date(row.at), ...adOf(row, ads) }),
  copyChanges: (row, data, ads) => ({
    ...eventOf(row), ...adOf(row, ads),
    before: { title: text(data.before, 'title'), body: text(data.before, 'body') },
    after: { title: text(data.after, 'title'), body: text(data.after, 'body') },
  }),
  hookChanges: (row, data, ads) => ({ ...eventOf(row), ...adOf(row, ads), before: text(data.before, 'hook'), after: text(data.after, 'hook') }),
  landingPageChanges: (row, data, ads) => ({ ...eventOf(row), ...adOf(row, ads), before: text(data.before, 'landingPageDomain'), after: text(data.after, 'landingPageDomain') }),
  newLandingPages: (row) => ({ domain: row.domain ?? '', firstSeenAt: new Date(row.at) }),
  newProducts: (row, _data, _ads, products) => ({ createdAt: new Date(row.at), ...productOf(row, products) }),
  priceChanges: (row, data, _ads, products) => ({
    ...eventOf(row), ...productOf(row, products), before: number(data.before, 'price'), after: number(data.after, 'price'), currency: text(data.after, 'currency'),
  }),
  stockChanges: (row, data, _ads, products) => ({ ...eventOf(row), ...productOf(row, products), available: data.after?.available === true }),
  rankMoves: (row, data, ads) => ({ ...eventOf(row), ...adOf(row, ads), before: number(data.before, 'rank'), after: number(data.after, 'rank') }),
  appsInstalled: (row, data) => appChange(row, data),
  appsRemoved: (row, data) => appChange(row, data),
};

function eventOf(row: FoundRow): EventOf {
  return { occurredAt: new Date(row.at), eventId: row.eventId === null ? '' : eventIdOf({ id: row.eventId }) };
}

function adOf(row: FoundRow, ads: Map<string, AdSummaryRow>): AdOf {
  return { adId: row.adId ?? '', adTitle: row.adTitle, ad: row.adId === null ? null : ads.get(row.adId) ?? null };
}

function productOf(row: FoundRow, products: Map<string, ProductRow>): ProductOf {
  return { productId: row.productId ?? '', shopId: row.shopId ?? '', productTitle: row.productTitle, product: row.productId === null ? null : products.get(row.productId) ?? null };
}

function appChange(row: FoundRow, data: ChangeData): SectionItems['appsInstalled'] {
  const app = ((data.after ?? data.before)?.app as App) ?? undefined;
  return {
    ...eventOf(row), shopId: row.shopId ?? '',
    appId: typeof app?.id === 'number' ? app.id : null,
    appName: typeof app?.name === 'string' ? app.name : null,
  };
}

/** The answer's sections (null: not asked for): each one's total and items, with their ads and products where loaded. */
function sectionsOf(found: Found, sections: readonly Section[], offset: number, ads: Map<string, AdSummaryRow>, products: Map<string, ProductRow>) {
  const bySection = Object.fromEntries(SECTIONS.map((section) => [section, null])) as { [S in Section]: ChangeSection<S> | null };
  for (const section of sections) bySection[section] = { total: found.totals[section] ?? 0, hasMore: false, items: [] };
  for (const row of found.rows) {
    const items = bySection[row.section]!.items as SectionItems[Section][];
    items.push(ITEMS[row.section](row, row.data ?? {}, ads, products));
  }
  for (const section of sections) {
    const changes = bySection[section]!;
    changes.hasMore = changes.total > offset + changes.items.length;
  }
  return bySection;
}

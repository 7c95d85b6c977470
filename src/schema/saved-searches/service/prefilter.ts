import { countryCode, hostOf } from '../../shared/codes.js';
import { termsOf, type TextSearch } from '../../shared/list.js';
import type { Family, MarketList } from '../../shared/market-lists.js';

// Which saved searches a changed row could match, without running them: a sound prefilter (it never drops a search a
// row matches). A row has facts: keys (its copy's words, its page, its countries, …) and numbers (its reach); a search
// has requirements read from its arguments, each a list of keys of which a matching row must have at least one, or
// bounds on a number: the list's own conditions imply them (a status, a text query's words, the tracked pages, the
// countries, a reach band). A search is run, restricted to the changed rows that meet all of its requirements, only
// when there is one; a search whose arguments imply none is run on every changed row of its list the prefilter knows
// (for the ads lists, the duplicate groups' leads: they hold nothing else). Facts exist for the Meta ads lists and the
// advertisers lists; the other lists are run on every change of their rows.
//
// Keys: `status:<ad status>`, `media:<media type>`, `adv:<page id>`, `t:<lexeme of the ad's copy>`, `b:<lexeme of its
// page's name>`, `tc:<targeted country>`, `mc:<main country>`, `dom:<its landing page's host, or a parent domain of
// it>`; numbers: an ad's reach and its gains (minReach, maxReach by reachPeriod).

/** The numbers of a changed row a requirement may bound: an ad's reach, and its gains over a day, 7 and 30 days. */
export type RowNumber = 'reach' | 'reachDelta1d' | 'reachDelta7d' | 'reachDelta30d';

/** Keys a matching row has at least one of, or a number of it within bounds (inclusive, as the lists' ranges). */
export type Requirement = string[] | { number: RowNumber; min: number | null; max: number | null };

/** What the prefilter knows of a changed row. */
export type RowFacts = { keys: Set<string>; numbers: Partial<Record<RowNumber, number>> };

/** A requirement still to read from a text query: the lexemes of its tsquery (src/schema/saved-searches/service.ts, queryLexemes). */
export type TextRequirement = { text: TextSearch; prefix: 't:' | 'b:' };

/** A search's requirements, some of them text queries to read. */
export type Requirements = (Requirement | TextRequirement)[];

export const isTextRequirement = (requirement: Requirement | TextRequirement): requirement is TextRequirement => 'text' in requirement;

/** The column of each reach period (ads/service/search.ts, REACH_COLUMN). */
const REACH_NUMBER: Record<string, RowNumber> = { total: 'reach', last24h: 'reachDelta1d', last7d: 'reachDelta7d', last30d: 'reachDelta30d' };

/** The families whose rows have facts (rowFacts, service.ts). */
export const KEYED_FAMILIES: ReadonlySet<Family> = new Set(['meta-ads', 'advertisers']);

/** The argument's value, or its default (REST leaves defaults to GraphQL). */
function arg<T>(list: MarketList, values: Record<string, unknown>, name: string): T | undefined {
  const value = values[name] ?? list.field.args.find((a) => a.name === name)?.defaultValue;
  return (value ?? undefined) as T | undefined;
}

/** Country codes as the lists read them (trimmed, upper case, UK as GB); a code the route would refuse is left out. */
const countryKeys = (prefix: string, codes: unknown) =>
  (Array.isArray(codes) ? codes : []).flatMap((code) => {
    const parsed = countryCode.safeParse(code);
    return parsed.success ? [`${prefix}${parsed.data}`] : [];
  });

/** What a search over the ads lists (GET /v1/ads, POST /v1/ads/query) requires of a row. */
function adRequirements(list: MarketList, values: Record<string, unknown>): Requirements {
  // Every ads list holds group leads only (ads/service/search.ts, conditions): rowFacts reads nothing of other ads.
  const out: Requirements = [];
  const status = arg<string>(list, values, 'status');
  if (status && status !== 'all') out.push([`status:${status}`]);
  const media = arg<string>(list, values, 'mediaType');
  if (media) out.push([`media:${media}`]);
  const type = arg<string>(list, values, 'searchType') ?? 'adCopy';
  let text: TextSearch | null = null;
  let terms: string[] = [];
  if (list.method === 'GET') {
    const websearch = arg<string>(list, values, 'search') ?? arg<string>(list, values, 'query');
    if (websearch !== undefined) [text, terms] = [{ websearch }, [websearch]];
  } else {
    terms = termsOf(arg<string[]>(list, values, 'search'));
    if (terms.length) text = { terms, keywordMode: arg(list, values, 'keywordMode') ?? 'any' };
  }
  if (text && type === 'adCopy') out.push({ text, prefix: 't:' });
  if (text && type === 'brand') out.push({ text, prefix: 'b:' });
  // A domain search: the landing page is on one of the terms' hosts (all of them with keywordMode all: one is needed anyway).
  if (text && type === 'domain') out.push(terms.map((term) => `dom:${hostOf(term)}`));
  if (list.method === 'POST') {
    const [min, max] = [arg<number>(list, values, 'minReach') ?? null, arg<number>(list, values, 'maxReach') ?? null];
    if (min !== null || max !== null) out.push({ number: REACH_NUMBER[arg<string>(list, values, 'reachPeriod') ?? 'total'], min, max });
    const pages = arg<string[]>(list, values, 'trackedPages');
    if (pages?.length) out.push(pages.map((page) => `adv:${page}`));
    const market = arg<{ main?: string[] | null; among?: string[] | null }>(list, values, 'market');
    for (const [prefix, codes] of [
      ['tc:', arg<{ include?: string[] | null }>(list, values, 'adCountries')?.include],
      ['mc:', arg<string[]>(list, values, 'mainCountries')],
      ['mc:', market?.main],
      ['tc:', market?.among],
    ] as const) {
      if (Array.isArray(codes) && codes.length) out.push(countryKeys(prefix, codes));
    }
  }
  return out;
}

/** What a search over the advertisers lists requires of a row: a brand search, the words of the page's name. */
function advertiserRequirements(list: MarketList, values: Record<string, unknown>): Requirements {
  const terms = termsOf(arg<string[]>(list, values, 'search'));
  if (!terms.length || (arg<string>(list, values, 'searchType') ?? 'brand') !== 'brand') return [];
  return [{ text: { terms, keywordMode: arg(list, values, 'keywordMode') ?? 'any' }, prefix: 'b:' }];
}

/** A search's requirements on a changed row of its list (none for a list whose rows have no keys). */
export function requirementsOf(list: MarketList, values: Record<string, unknown>): Requirements {
  if (list.family === 'meta-ads') return adRequirements(list, values);
  if (list.family === 'advertisers') return advertiserRequirements(list, values);
  return [];
}

/**
 * The lexemes of a tsquery's text (`'summer' & !'dress'`, quotes doubled and backslashes escaped in a lexeme). A
 * document that matches the query has one of them, unless the query matches a document with none (`!'dress'`): then
 * it requires nothing.
 */
export function lexemesOf(query: string): string[] {
  const found = new Set<string>();
  for (const match of query.matchAll(/'((?:[^'\\]|''|\\.)*)'/g)) found.add(match[1].replace(/''|\\(.)/g, (_all, escaped?: string) => escaped ?? "'"));
  return [...found];
}

/** What the prefilter reads of a changed ad (rowFacts, service.ts). */
export type AdProfile = {
  id: string;
  status: string;
  mediaType: string;
  advertiserId: string;
  copy: string[] | null;
  brand: string[] | null;
  targetedCountries: string[] | null;
  mainCountry: string | null;
  landingPageDomain: string | null;
} & Record<RowNumber, number | null>;

export function adFacts(ad: AdProfile): RowFacts {
  const keys = new Set([`status:${ad.status}`, `media:${ad.mediaType}`, `adv:${ad.advertiserId}`]);
  for (const lexeme of ad.copy ?? []) keys.add(`t:${lexeme}`);
  for (const lexeme of ad.brand ?? []) keys.add(`b:${lexeme}`);
  for (const country of ad.targetedCountries ?? []) keys.add(`tc:${country}`);
  if (ad.mainCountry) keys.add(`mc:${ad.mainCountry}`);
  // onDomain (shared/domains.ts): the landing page's host is the searched host or one of its subdomains.
  for (let host = ad.landingPageDomain; host !== null; ) {
    keys.add(`dom:${host}`);
    const dot = host.indexOf('.');
    host = dot < 0 ? null : host.slice(dot + 1);
  }
  const numbers: RowFacts['numbers'] = {};
  for (const name of Object.values(REACH_NUMBER)) if (ad[name] !== null) numbers[name] = ad[name];
  return { keys, numbers };
}

const meets = (row: RowFacts, requirement: Requirement) => {
  if (Array.isArray(requirement)) return requirement.some((key) => row.keys.has(key));
  const value = row.numbers[requirement.number];
  return value !== undefined && (requirement.min === null || value >= requirement.min) && (requirement.max === null || value <= requirement.max);
};

/** The rows (by index) that meet every requirement; every row when there is none. */
export function candidatesOf(requirements: Requirement[], rows: RowFacts[], byKey: Map<string, number[]>): number[] {
  // Start from the key requirement with the fewest rows (or every row), check the others on each of them.
  const keyed = requirements.filter((r): r is string[] => Array.isArray(r));
  const smallest = keyed
    .map((keys) => ({ keys, rows: keys.reduce((n, key) => n + (byKey.get(key)?.length ?? 0), 0) }))
    .sort((a, b) => a.rows - b.rows)[0];
  const start = smallest ? [...new Set(smallest.keys.flatMap((key) => byKey.get(key) ?? []))] : rows.map((_, i) => i);
  const rest = requirements.filter((r) => r !== smallest?.keys);
  return start.filter((i) => rest.every((requirement) => meets(rows[i], requirement)));
}

/** Rows by key, for candidatesOf. */
export function keyIndex(rows: RowFacts[]): Map<string, number[]> {
  const index = new Map<string, number[]>();
  rows.forEach(({ keys }, i) => {
    for (const key of keys) {
      const list = index.get(key);
      if (list) list.push(i);
      else index.set(key, [i]);
    }
  });
  return index;
}

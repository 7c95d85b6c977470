import { countryCode, hostOf } from '../shared/codes.js';
import { termsOf, type TextSearch } from '../shared/list.js';
import type { Family, MarketList } from './lists.js';

// Which saved searches a changed row could match, without running them: a sound prefilter (it never drops a search a
// row matches). A row has keys (its copy's words, its page, its countries, …); a search has requirements read from its
// arguments, each a list of keys of which a matching row must have at least one: the list's own conditions imply them
// (the ads lists' `isGroupLead`, a status, a text query's words, the tracked pages, the countries). A search is run,
// restricted to the changed rows that meet all of its requirements, only when there is one. A search whose arguments
// imply nothing the keys say is run on every changed row of its list. Keys exist for the Meta ads lists and the
// advertisers lists; the other lists are run on every change of their rows.
//
// Keys: `lead:true|false`, `status:<ad status>`, `media:<media type>`, `adv:<page id>`, `t:<lexeme of the ad's copy>`,
// `b:<lexeme of its page's name>`, `tc:<targeted country>`, `mc:<main country>`, `dom:<its landing page's host, or a
// parent domain of it>`.

/** Keys a matching row has at least one of. */
export type Requirement = string[];

/** A requirement still to read from a text query: the lexemes of its tsquery (src/schema/saved-searches/service.ts, queryLexemes). */
export type TextRequirement = { text: TextSearch; prefix: 't:' | 'b:' };

/** A search's requirements, some of them text queries to read. */
export type Requirements = (Requirement | TextRequirement)[];

/** The families whose rows have keys (rowKeys, service.ts). */
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
  // Every ads list holds group leads only (ads/service/search.ts, conditions).
  const out: Requirements = [['lead:true']];
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

/** The row keys of a changed ad (rowKeys, service.ts). */
export type AdProfile = {
  id: string;
  lead: boolean;
  status: string;
  mediaType: string;
  advertiserId: string;
  copy: string[] | null;
  brand: string[] | null;
  targetedCountries: string[] | null;
  mainCountry: string | null;
  landingPageDomain: string | null;
};

export function adKeys(ad: AdProfile): Set<string> {
  const keys = new Set([`lead:${ad.lead}`, `status:${ad.status}`, `media:${ad.mediaType}`, `adv:${ad.advertiserId}`]);
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
  return keys;
}

/** The rows (by index) that meet every requirement; every row when there is none. */
export function candidatesOf(requirements: Requirement[], rows: Set<string>[], byKey: Map<string, number[]>): number[] {
  if (!requirements.length) return rows.map((_, i) => i);
  // Start from the requirement with the fewest rows, check the others on each of them.
  const sized = requirements.map((keys) => ({ keys, rows: keys.reduce((n, key) => n + (byKey.get(key)?.length ?? 0), 0) })).sort((a, b) => a.rows - b.rows);
  const first = new Set(sized[0].keys.flatMap((key) => byKey.get(key) ?? []));
  const rest = sized.slice(1).map(({ keys }) => keys);
  return [...first].filter((i) => rest.every((keys) => keys.some((key) => rows[i].has(key))));
}

/** Rows by key, for candidatesOf. */
export function keyIndex(rows: Set<string>[]): Map<string, number[]> {
  const index = new Map<string, number[]>();
  rows.forEach((keys, i) => {
    for (const key of keys) {
      const list = index.get(key);
      if (list) list.push(i);
      else index.set(key, [i]);
    }
  });
  return index;
}

import { describe, expect, it } from 'vitest';
import { argumentsFromHttp } from '../../rest/arguments.js';
import { locationOf, MAX_QUERY_LIST } from '../../rest/routes.js';
import type { RestRoute } from '../../rest/routes.js';
import { schema } from '../../src/schema/index.js';

// rest/arguments.ts's argumentsFromHttp as a unit: HTTP input to typed GraphQL argument values. GET /v1/ads has no list
// parameter, so the list rules are checked with the arguments of Query.adsQuery read from a query string.

const adsQueryArgs = schema.getQueryType()!.getFields().adsQuery.args;
const adArgs = schema.getQueryType()!.getFields().ad.args;
const getRoute: RestRoute = { method: 'GET', path: '/test', field: 'Query.adsQuery', envelope: 'spread', tags: [] };
const postRoute: RestRoute = { method: 'POST', path: '/test', field: 'Query.adsQuery', envelope: 'spread', tags: [] };

const fromQuery = (query: string) => argumentsFromHttp(getRoute, adsQueryArgs, { pathParams: {}, query: new URLSearchParams(query), body: null });
const fromBody = (body: Record<string, unknown>) => argumentsFromHttp(postRoute, adsQueryArgs, { pathParams: {}, query: new URLSearchParams(), body });

describe('query-string lists', () => {
  it('comma-separated and repeated values give the same list', () => {
    const comma = fromQuery('search=serum,training&adLanguage=en,fr');
    const repeated = fromQuery('search=serum&search=training&adLanguage=en&adLanguage=fr');
    const mixed = fromQuery('search=serum,training&adLanguage=en&adLanguage=fr');
    expect(comma).toEqual({ values: { search: ['serum', 'training'], adLanguage: ['en', 'fr'] }, violations: [] });
    expect(repeated).toEqual(comma);
    expect(mixed).toEqual(comma);
  });

  it('blank items are dropped and items are trimmed', () => {
    expect(fromQuery('search=serum,,%20training%20,').values).toEqual({ search: ['serum', 'training'] });
    expect(fromQuery('search=').values).toEqual({});
  });

  it(`more than ${MAX_QUERY_LIST} values are rejected`, () => {
    const values = (n: number) => Array.from({ length: n }, (_, i) => `k${i}`);
    expect(fromQuery(`search=${values(MAX_QUERY_LIST).join(',')}`).values.search).toHaveLength(MAX_QUERY_LIST);
    expect(fromQuery(`search=${values(MAX_QUERY_LIST + 1).join(',')}`)).toEqual({
      values: {},
      violations: [{ argument: 'search', location: 'query-string', expected: [`search must contain no more than ${MAX_QUERY_LIST} elements`] }],
    });
    expect(fromQuery(values(MAX_QUERY_LIST + 1).map((v) => `search=${v}`).join('&')).violations).toHaveLength(1);
  });

  it('list items are typed: an enum list rejects an unknown value', () => {
    expect(fromQuery('platforms=facebook').values).toEqual({ platforms: ['facebook'] });
    expect(fromQuery('platforms=facebook,tiktok').violations).toEqual([
      { argument: 'platforms', location: 'query-string', expected: ['each value in platforms must be one of the following values: facebook'] },
    ]);
  });

  it('a scalar given twice takes the last value', () => {
    expect(fromQuery('limit=5&limit=7').values).toEqual({ limit: 7 });
  });
});

describe('query-string scalars', () => {
  it('booleans are true or false only', () => {
    expect(fromQuery('hideLowReach=true&partners=false').values).toEqual({ hideLowReach: true, partners: false });
    for (const raw of ['yes', '1', 'TRUE', 'on']) {
      expect(fromQuery(`hideLowReach=${raw}`).violations, raw).toEqual([
        { argument: 'hideLowReach', location: 'query-string', expected: ['hideLowReach must be a boolean value'] },
      ]);
    }
  });

  it('integers', () => {
    expect(fromQuery('limit=25&page=+2&minDaysRunning=-3').values).toEqual({ limit: 25, page: 2, minDaysRunning: -3 });
    for (const raw of ['abc', '1.5', '1e3', '0x10', '99999999999', '']) {
      const result = fromQuery(`limit=${raw}`);
      if (raw === '') expect(result).toEqual({ values: {}, violations: [] });
      else expect(result.violations, raw).toEqual([{ argument: 'limit', location: 'query-string', expected: ['limit must be an integer number'] }]);
    }
  });

  it('floats', () => {
    expect(fromQuery('minReach=1.5&cpm=10').values).toEqual({ minReach: 1.5, cpm: 10 });
    expect(fromQuery('minReach=lots').violations).toEqual([{ argument: 'minReach', location: 'query-string', expected: ['minReach must be a number'] }]);
    expect(fromQuery('minReach=Infinity').violations).toHaveLength(1);
  });

  it('enums', () => {
    expect(fromQuery('status=active&sortBy=reachDelta7d&order=asc').values).toEqual({ status: 'active', sortBy: 'reachDelta7d', order: 'asc' });
    expect(fromQuery('status=Active').violations).toEqual([
      { argument: 'status', location: 'query-string', expected: ['status must be one of the following values: active, inactive, all'] },
    ]);
  });

  it('dates', () => {
    expect(fromQuery('createdAfter=2026-11-01').values).toEqual({ createdAfter: '2026-11-01' });
    for (const raw of ['2026-13-01', '2026-02-30', 'yesterday', '01/11/2026']) {
      expect(fromQuery(`createdAfter=${raw}`).violations, raw).toEqual([
        { argument: 'createdAfter', location: 'query-string', expected: ['createdAfter must be a valid date (YYYY-MM-DD)'] },
      ]);
    }
  });

  it('an input object cannot come from a query string', () => {
    expect(fromQuery('adCountries=CA').violations).toEqual([{ argument: 'adCountries', location: 'query-string', expected: ['adCountries must be an object'] }]);
  });

  it('unknown parameters are ignored and every violation is reported', () => {
    const result = fromQuery('offset=10&foo=bar&limit=x&status=foo&hideLowReach=yes');
    expect(result.values).toEqual({});
    expect(result.violations.map((v) => v.argument)).toEqual(['limit', 'status', 'hideLowReach']); // in argument order
  });
});

describe('JSON bodies', () => {
  it('values keep their JSON types; strings are not coerced', () => {
    expect(fromBody({ limit: 5, hideLowReach: true, minReach: 2.5, status: 'all' }).values).toEqual({ limit: 5, hideLowReach: true, minReach: 2.5, status: 'all' });
    expect(fromBody({ limit: '5' }).violations).toEqual([{ argument: 'limit', location: 'body', expected: ['limit must be an integer number'] }]);
    expect(fromBody({ hideLowReach: 'true' }).violations).toEqual([{ argument: 'hideLowReach', location: 'body', expected: ['hideLowReach must be a boolean value'] }]);
    expect(fromBody({ minReach: '2' }).violations).toEqual([{ argument: 'minReach', location: 'body', expected: ['minReach must be a number'] }]);
  });

  it('a body list keeps commas inside items; a single value counts as a one-item list', () => {
    expect(fromBody({ search: ['a,b'] }).values).toEqual({ search: ['a,b'] });
    expect(fromBody({ search: 'serum' }).values).toEqual({ search: ['serum'] });
    expect(fromBody({ platforms: ['facebook', 'tiktok'] }).violations).toHaveLength(1);
  });

  it('input objects are checked field by field; unknown fields inside are dropped', () => {
    expect(fromBody({ adCountries: { include: ['CA'], other: 1 } }).values).toEqual({ adCountries: { include: ['CA'] } });
    expect(fromBody({ adCountries: { include: [5] } }).violations).toEqual([
      { argument: 'adCountries', location: 'body', expected: ['each value in adCountries.include must be a string'] },
    ]);
    expect(fromBody({ adCountries: ['CA'] }).violations).toEqual([{ argument: 'adCountries', location: 'body', expected: ['adCountries must be an object'] }]);
  });

  it('null counts as absent', () => {
    expect(fromBody({ limit: null, status: null })).toEqual({ values: {}, violations: [] });
  });
});

describe('path parameters', () => {
  const adRoute: RestRoute = { method: 'GET', path: '/ads/:adId', field: 'Query.ad', envelope: 'single', tags: [] };
  it('come from the path, never from the query string', () => {
    const result = argumentsFromHttp(adRoute, adArgs, { pathParams: { adId: 'facebook_9001' }, query: new URLSearchParams('adId=facebook_9002'), body: null });
    expect(result).toEqual({ values: { adId: 'facebook_9001' }, violations: [] });
    expect(locationOf(adRoute, 'adId')).toBe('path');
    expect(locationOf(adRoute, 'limit')).toBe('query-string');
    expect(locationOf(postRoute, 'limit')).toBe('body');
  });

  it('a required argument without a value is reported', () => {
    expect(argumentsFromHttp(adRoute, adArgs, { pathParams: {}, query: new URLSearchParams(), body: null }).violations).toEqual([
      { argument: 'adId', location: 'query-string', expected: ['adId should not be empty'] },
    ]);
  });
});

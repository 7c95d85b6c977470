import { describe, expect, it } from 'vitest';
import { CHARS_PER_TOKEN, compactItem, fit, project, readShaping, shapeEnvelope, type Shaping } from '../../src/mcp/shape.js';

// The answer budget on its own: where a cut list continues for each page style, what a compact item keeps, how a
// record too large is shortened, and the shaping arguments' validation.

const rows = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ id: `r${from + i}`, name: `Row ${from + i}`, text: 'x'.repeat(400), metrics: { reach: i, other: 'y' }, tags: ['a'] }));
const shaping = (maxTokens: number, detail: Shaping['detail'] = 'full', fields: string[] | null = null): Shaping => ({ maxTokens, detail, fields });
const shaped = (envelope: unknown, s: Shaping, args = {}) => JSON.parse(shapeEnvelope(envelope, s, { tool: 'list_tool', args }));

describe('a list cut to the budget', () => {
  it('an offset list continues at offset + shown', () => {
    const answer = shaped({ data: rows(10, 20), pagination: { offset: 20, limit: 10, total: 100 } }, shaping(500), { limit: 10, offset: 20 });
    const shown = answer.data.length;
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(10);
    expect(JSON.stringify(answer).length).toBeLessThanOrEqual(500 * CHARS_PER_TOKEN);
    expect(answer.continueWith).toEqual({ tool: 'list_tool', arguments: { limit: 10, offset: 20 + shown }, remaining: 100 - 20 - shown });
  });

  it('a page list continues with a limit dividing the rows read, so that the next page starts at the first item cut', () => {
    const answer = shaped({ data: rows(12, 12), pagination: { page: 2, limit: 12, total: 50, totalPages: 5 } }, shaping(800), { page: 2, limit: 12 });
    const keep = answer.data.length;
    expect(12 % keep).toBe(0);
    const { page, limit } = answer.continueWith.arguments;
    expect(limit).toBe(keep);
    expect((page - 1) * limit).toBe(12 + keep); // the next page's first row is the first one left out
    expect(answer.cut).toEqual({ shown: keep, of: 12, reason: 'maxTokens 800' });
  });

  it('a cursor page cannot restart in its middle: it says to ask for fewer rows', () => {
    const answer = shaped({ data: rows(10), pagination: { nextCursor: 'abc' } }, shaping(500));
    expect(answer.continueWith).toBeUndefined();
    expect(answer.hint).toMatch(/ask for limit \d+/);
    const whole = shaped({ data: rows(2), pagination: { nextCursor: 'abc' } }, shaping(8000), { limit: 2 });
    expect(whole.continueWith).toEqual({ tool: 'list_tool', arguments: { limit: 2, cursor: 'abc' } });
  });

  it('a list not cut continues with its next page, and the last page with nothing', () => {
    expect(shaped({ data: rows(2), pagination: { page: 1, limit: 2, total: 5, totalPages: 3 } }, shaping(8000), { limit: 2 }).continueWith).toEqual({ tool: 'list_tool', arguments: { limit: 2, page: 2 }, remaining: 3 });
    expect(shaped({ data: rows(1), pagination: { page: 3, limit: 2, total: 5, totalPages: 3 } }, shaping(8000)).continueWith).toBeUndefined();
  });
});

describe('compact items and fields', () => {
  it('a compact item keeps the scalars (texts cut), nested ids, names and figures, and lists of objects as their count', () => {
    const item = { id: 'a', title: 't'.repeat(300), advertiser: { id: 'p', name: 'Brand', logoUrl: 'u' }, metrics: { reach: 5, estimatedSpend: 3 }, countries: ['FR'], members: [{ id: 1 }, { id: 2 }] };
    expect(compactItem(item)).toEqual({ id: 'a', title: `${'t'.repeat(159)}…`, advertiser: { id: 'p', name: 'Brand' }, metrics: { reach: 5 }, countries: ['FR'], membersCount: 2 });
  });

  it('fields keep the dotted paths asked for, and the id', () => {
    expect(project({ id: 'a', metrics: { reach: 5, spend: 1 }, name: 'n' }, ['metrics.reach'])).toEqual({ id: 'a', metrics: { reach: 5 } });
    const answer = shaped({ data: rows(2) }, shaping(8000, 'compact', ['name']));
    expect(answer.data).toEqual([{ id: 'r0', name: 'Row 0' }, { id: 'r1', name: 'Row 1' }]);
  });
});

describe('a record past the budget', () => {
  it('keeps as much of one long text as fits, and says it was shortened', () => {
    const html = `<html>${'<p>hello</p>'.repeat(20_000)}</html>`;
    const text = shapeEnvelope({ data: { emailId: 1, html, htmlLength: html.length } }, shaping(1000), { tool: 'get_email_html', args: {} });
    expect(text.length).toBeLessThanOrEqual(1000 * CHARS_PER_TOKEN);
    const answer = JSON.parse(text);
    expect(answer.data.htmlLength).toBe(html.length);
    expect(answer.data.html.length).toBeGreaterThan(3000);
    expect(html.startsWith(answer.data.html.slice(0, -1))).toBe(true);
    expect(answer.shortened).toMatch(/maxTokens/);
  });

  it('shortens lists and texts everywhere when one text is not the problem', () => {
    const big = { list: Array.from({ length: 500 }, (_, i) => ({ i, text: 'z'.repeat(100) })) };
    const { value, shortened } = fit(big, 2000);
    expect(shortened).toBe(true);
    expect(JSON.stringify(value).length).toBeLessThanOrEqual(2000);
  });
});

describe('the shaping arguments', () => {
  it('are validated by name, and taken out of the route arguments', () => {
    expect(readShaping({ maxTokens: 10, fields: ['a b'], detail: 'all' }, 'full')).toEqual({
      violations: [
        { field: 'maxTokens', location: 'argument', expected: ['maxTokens must be an integer from 200 to 50000'] },
        { field: 'fields', location: 'argument', expected: ['fields must be a list of at most 100 dotted field paths (letters, digits, _ and .)'] },
        { field: 'detail', location: 'argument', expected: ['detail must be one of: compact, full'] },
      ],
    });
    expect(readShaping({ limit: 5, maxTokens: 300 }, 'compact')).toEqual({ shaping: { maxTokens: 300, fields: null, detail: 'compact' }, rest: { limit: 5 } });
  });
});

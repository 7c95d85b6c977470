import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { expectViolation } from '../support/assertions.js';
import { DESIGN, imageScenario } from '../products/image-scenario.js';
import { P } from '../products/scenario.js';

// Share links answer at their URL (issue #39): an ad's as a board's, a page for a browser and JSON otherwise, a 404
// once the link no longer answers. And a product's own imageUrl (the server's media) is searchable by URL.

const AD = 'facebook_7001';
const HOSTILE_AD = 'facebook_7002';
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp(async (db) => {
    await imageScenario(db);
    const day = new Date('2026-11-01T00:00:00Z');
    const ad = { collationId: '', status: 'active' as const, createdAt: day, firstSeenAt: day, lastSeenAt: day, advertiserId: '3000000000000001', targetedCountries: ['FR'] };
    await db.prisma.ad.createMany({
      data: [
        { ...ad, id: AD, collationId: AD, mediaType: 'image', mediaUrl: `/media/ads/${AD}.jpg`, thumbnailUrl: `/media/ads/${AD}-thumb.jpg`, title: 'Glow all winter', body: 'Vitamin C serum, 20% off', callToAction: 'Shop now', landingPageUrl: 'https://glow.example/serum', landingPageDomain: 'glow.example' },
        { ...ad, id: HOSTILE_AD, collationId: HOSTILE_AD, status: 'inactive', mediaType: 'image', mediaUrl: 'javascript:alert(1)', title: '<script>alert(1)</script>', body: 'a & b "quoted"', landingPageUrl: 'javascript:alert(2)' },
      ],
    });
  });
  ({ apiKey: key } = await t.newKey());
});
afterAll(() => t?.close());

async function open(path: string, init: { method?: string; accept?: string } = {}) {
  const res = await t.app.fetch(`http://api.test${path}`, { method: init.method ?? 'GET', headers: init.accept ? { accept: init.accept } : {} });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: res.headers.get('content-type')?.startsWith('application/json') && text ? JSON.parse(text) : undefined };
}

async function share(adId: string) {
  const res = await t.rest('POST', `/ads/${adId}/share`, { key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { slug: string; shareUrl: string; sharePath: string };
}

describe('ad share links', () => {
  it('answer at their shareUrl without a key: JSON with the ad, its creative, copy and advertiser', async () => {
    const link = await share(AD);
    expect(link.shareUrl).toBe(`http://api.test/share/ads/${link.slug}`);
    expect(link.sharePath).toBe(`/share/ads/${link.slug}`);
    const res = await open(link.sharePath);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({
      requestId: res.headers.get('x-request-id'),
      data: {
        ad: {
          id: AD,
          platform: 'facebook',
          status: 'active',
          media: { type: 'image', thumbnailUrl: `http://api.test/media/ads/${AD}-thumb.jpg`, mediaUrl: `http://api.test/media/ads/${AD}.jpg` },
          content: { title: 'Glow all winter', body: 'Vitamin C serum, 20% off', callToAction: 'Shop now', landingPageUrl: 'https://glow.example/serum', landingPageDomain: 'glow.example' },
          advertiser: { id: '3000000000000001', name: 'Glow Group' },
          firstSeenAt: '2026-11-01T00:00:00.000Z',
          lastSeenAt: '2026-11-01T00:00:00.000Z',
        },
        sharedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    });
    // The picture it names answers on this server.
    expect((await open(new URL(res.json.data.ad.media.mediaUrl).pathname)).headers.get('content-type')).toBe('image/jpeg');
  });

  it('answer a browser with a page showing the creative and the copy, and HEAD without a body', async () => {
    const link = await share(AD);
    const page = await open(link.sharePath, { accept: BROWSER });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.text).toContain('<h1>Glow Group</h1>');
    expect(page.text).toContain(`<img src="http://api.test/media/ads/${AD}.jpg"`);
    expect(page.text).toContain('<a href="https://glow.example/serum" rel="nofollow noopener noreferrer">Shop now</a>');
    const head = await open(link.sharePath, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
  });

  it('escape what the ad holds and never link a non-http URL', async () => {
    const page = await open((await share(HOSTILE_AD)).sharePath, { accept: BROWSER });
    expect(page.status).toBe(200);
    expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.text).toContain('a &amp; b &quot;quoted&quot;');
    expect(page.text).not.toMatch(/<script|javascript:/i);
  });

  it('are read-only (405 with Allow), and an unknown slug or the share of a removed ad is a 404 not_found', async () => {
    const link = await share(HOSTILE_AD);
    const post = await open(link.sharePath, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect(post.json.error).toMatchObject({ code: 'method_not_allowed', requestId: post.headers.get('x-request-id') });

    for (const path of ['/share/ads/doesNotExist', '/share/ads/bad.slug', `/share/ads/${'x'.repeat(65)}`]) {
      const missing = await open(path);
      expect(missing.status, path).toBe(404);
      expect(missing.json.error).toMatchObject({ code: 'not_found', requestId: missing.headers.get('x-request-id') });
    }
    // The ad leaves the market: its shares go with it.
    await t.db.prisma.ad.delete({ where: { id: HOSTILE_AD } });
    const gone = await open(link.sharePath);
    expect(gone.status).toBe(404);
    expect(gone.json.error.code).toBe('not_found');
    const page = await open(link.sharePath, { accept: BROWSER });
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('This share link does not exist or no longer answers.');
  });
});

describe('share pages under load', () => {
  it("take a token of the client address's bucket (twice the read bucket): past it a 429 rate_limited with Retry-After, also for unknown slugs", async () => {
    const link = await share(AD);
    const limited = await createTestApp(undefined, { database: t.db, rateLimits: { read: { capacity: 1, perSecond: 0.001 }, write: { capacity: 1, perSecond: 0.001 } } });
    try {
      const get = (path: string) => limited.app.fetch(`http://api.test${path}`);
      expect((await get(link.sharePath)).status).toBe(200);
      expect((await get('/share/ads/doesNotExist')).status).toBe(404);
      const refused = await get(link.sharePath);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect((await refused.json()).error.code).toBe('rate_limited');
      expect((await get('/share/boards/doesNotExist')).status).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe('board share links', () => {
  it('answer a browser with a page of the board and its items, and JSON otherwise, until revoked', async () => {
    const board = (await t.rest('POST', '/boards', { key, body: { name: 'Winter <picks>', surface: 'ads', visibility: 'workspace' } })).body.data;
    expect((await t.rest('POST', `/boards/${board.id}/items`, { key, body: { type: 'ad', targetId: AD, note: 'best hook' } })).status).toBe(200);
    const link = (await t.rest('POST', `/boards/${board.id}/share`, { key })).body.data;
    const json = await open(link.sharePath);
    expect(json.status).toBe(200);
    expect(json.json.data.items).toEqual([expect.objectContaining({ type: 'ad', targetId: AD, note: 'best hook' })]);
    const page = await open(link.sharePath, { accept: BROWSER });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('<h1>Winter &lt;picks&gt;</h1>');
    expect(page.text).toContain(`<code>${AD}</code>`);
    expect(page.text).toContain('best hook');
    const refused = await open(`${link.sharePath}?limit=0`);
    expectViolation({ ...refused, body: refused.json }, 'query-string.limit');

    expect((await t.rest('DELETE', `/boards/${board.id}/share`, { key })).body.data.revoked).toBe(true);
    const revoked = await open(link.sharePath, { accept: BROWSER });
    expect(revoked.status).toBe(404);
    expect(revoked.text).toContain('not_found');
  });
});

describe('image search by the URL of the server’s own media', () => {
  // api.test resolves nowhere: over the network these URLs could not be fetched at all.
  it('finds a product from its own imageUrl (read where the server serves it, not over the network)', async () => {
    const products = await t.rest('GET', '/products?limit=25', { key });
    const a1 = products.body.data.find((product: { id: string }) => product.id === P.A1);
    expect(a1.imageUrl).toBe(`http://api.test/media/products/${DESIGN.A1}.jpg`);
    const res = await t.rest('POST', '/products/image-search', { key, body: { imageUrl: a1.imageUrl } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(new Set(res.body.data.slice(0, 2).map((match: { product: { id: string } }) => match.product.id))).toEqual(new Set([P.A1, P.C1]));
    expect(res.body.data[0].score).toBeGreaterThanOrEqual(0.95);

    const shops = await t.rest('POST', '/shops/image-search', { key, body: { imageUrl: `http://api.test/media/products/${DESIGN.B1}.jpg` } });
    expect(shops.status).toBe(200);
    expect(shops.body.data[0].score).toBeGreaterThanOrEqual(0.95);
  });

  it('a path of this server that serves no picture is a 400 naming imageUrl; another private address is still refused', async () => {
    expectViolation(await t.rest('POST', '/products/image-search', { key, body: { imageUrl: 'http://api.test/media/nothing.jpg' } }), 'body.imageUrl', /HTTP 404/);
    expectViolation(await t.rest('POST', '/products/image-search', { key, body: { imageUrl: `http://api.test/media/ads/${AD}.mp4` } }), 'body.imageUrl', /HTTP 404/);
    expectViolation(await t.rest('POST', '/products/image-search', { key, body: { imageUrl: `http://127.0.0.1/media/products/${DESIGN.A1}.jpg` } }), 'body.imageUrl', /public address/);
    expectViolation(await t.rest('POST', '/products/image-search', { key, body: { imageUrl: `http://api.test:8080/media/products/${DESIGN.A1}.jpg` } }), 'body.imageUrl');
  });
});

import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeImage } from '../../src/data/images/decode.js';
import { createTestApp, type TestApp } from '../support/app.js';

// The demo market's media answers offline: every media, logo, screenshot and thumbnail URL the API gives for a row of
// the generated market is absolute, below the server's PUBLIC_BASE_URL (http://api.test here), and a GET of it without
// a key answers the picture (or, for a video, the placeholder clip) from the server itself.

const BASE = 'http://api.test';
// The fields that carry a URL of media; `url` counts inside media objects (ad media-url, Google ad media, TikTok medias).
const MEDIA_FIELDS = new Set(['logoUrl', 'avatarUrl', 'thumbnailUrl', 'mediaUrl', 'videoUrl', 'screenshotUrl', 'faviconUrl', 'iconUrl', 'imageUrl', 'imageUrls', 'previewUrls', 'profilePhotoUrl', 'brandLogo']);
const MEDIA_PARENTS = new Set(['media', 'medias', 'screenshots']);

/** Every media URL in a response body, with where it was found. */
function mediaUrlsIn(body: unknown, path = '', parent = ''): { path: string; url: string }[] {
  if (Array.isArray(body)) return body.flatMap((item, i) => mediaUrlsIn(item, `${path}[${i}]`, parent));
  if (body === null || typeof body !== 'object') return [];
  return Object.entries(body).flatMap(([key, value]) => {
    const at = `${path}.${key}`;
    const isMedia = MEDIA_FIELDS.has(key) || (key === 'url' && MEDIA_PARENTS.has(parent)) || parent === 'screenshots';
    if (isMedia && typeof value === 'string') return [{ path: at, url: value }];
    if (isMedia && Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.map((url: string, i) => ({ path: `${at}[${i}]`, url }));
    return mediaUrlsIn(value, at, key);
  });
}

let t: TestApp;
let key: string;
const found: { route: string; path: string; url: string }[] = [];

const rest = async (method: string, path: string, body?: unknown) => {
  const res = await t.rest(method, path, { key, body });
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body).slice(0, 300)}`).toBeLessThan(300);
  found.push(...mediaUrlsIn(res.body).map((media) => ({ route: `${method} ${path}`, ...media })));
  return res.body;
};

beforeAll(async () => {
  t = await createTestApp(undefined, { market: { scale: 'tiny', seed: 7, asOf: new Date('2025-06-01T00:00:00Z') } });
  ({ apiKey: key } = await t.newKey());
});

afterAll(async () => {
  await t?.close();
});

/** Fetches a media URL the way an <img> does (no key) and checks what it answers. */
async function expectServed(url: string): Promise<void> {
  expect(url.startsWith(`${BASE}/media/`), url).toBe(true);
  const response = await t.app.fetch(url);
  expect(response.status, url).toBe(200);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const type = response.headers.get('content-type');
  if (url.endsWith('.mp4')) {
    expect(type, url).toBe('video/mp4');
    expect(Buffer.from(bytes.subarray(4, 8)).toString('latin1'), url).toBe('ftyp');
    return;
  }
  expect(type, url).toBe(url.endsWith('.png') ? 'image/png' : 'image/jpeg');
  const picture = await decodeImage(bytes);
  expect(picture.width * picture.height, url).toBeGreaterThan(0);
}

describe('the demo market media', () => {
  it('stores only paths of the server\'s own media', async () => {
    const { rows } = await t.db.pool.query<{ url: string }>(`
      SELECT u AS url FROM (
        SELECT unnest(array["mediaUrl", "thumbnailUrl"]) AS u FROM ads
        UNION ALL SELECT "logoUrl" FROM advertisers
        UNION ALL SELECT unnest(array["logoUrl", "faviconUrl", "screenshotUrl"]) FROM shops
        UNION ALL SELECT unnest(array["screenshotDesktopUrl", "screenshotMobileUrl", "screenshotHeadUrl"]) FROM landing_pages
        UNION ALL SELECT "screenshotUrl" FROM emails
        UNION ALL SELECT "avatarUrl" FROM tiktok_profiles
        UNION ALL SELECT unnest(array["thumbnailUrl", "mediaUrl", "videoUrl"] || "imageUrls") FROM tiktok_items
        UNION ALL SELECT "logoUrl" FROM google_advertisers
        UNION ALL SELECT "mediaUrl" FROM google_ads
        UNION ALL SELECT "imageUrl" FROM products
        UNION ALL SELECT unnest("previewUrls") FROM products
        UNION ALL SELECT "iconUrl" FROM shopify_apps UNION ALL SELECT "iconUrl" FROM technologies UNION ALL SELECT "iconUrl" FROM pixels
        UNION ALL SELECT "avatarUrl" FROM brandtrackers
      ) stored WHERE u IS NOT NULL AND u !~ '^/media/'`);
    expect(rows).toEqual([]);
  });

  it('gives absolute URLs on every REST route that the server answers without a key', async () => {
    const ads = (await rest('POST', '/ads/query', { limit: 50 })).data as { id: string; media: { type: string; mediaUrl: string | null } }[];
    const video = ads.find((ad) => ad.media.type === 'video' && ad.media.mediaUrl)!;
    const image = ads.find((ad) => ad.media.type === 'image' && ad.media.mediaUrl)!;
    for (const ad of [video, image]) {
      await rest('GET', `/ads/${ad.id}`);
      const media = (await rest('GET', `/ads/${ad.id}/media-url`)).data;
      expect(media).toMatchObject({ url: media.mediaUrl, urlType: 'public_asset', selectedSource: 'media_url', filename: `${ad.id}.${ad === video ? 'mp4' : 'jpg'}` });
      found.push({ route: `GET /ads/${ad.id}/media-url`, path: '.data.url', url: media.url });
    }
    const advertisers = (await rest('GET', '/advertisers?limit=10')).data as { id: string }[];
    await rest('GET', `/advertisers/${advertisers[0].id}`);
    const shops = (await rest('GET', '/shops?limit=20&sort=monthlyVisits')).data as { id: string }[];
    await rest('GET', `/shops/${shops[0].id}`);
    await rest('GET', `/shops/${shops[0].id}/products`);
    const emails = (await rest('POST', '/emails/query', { limit: 10 })).data as { id: number }[];
    await rest('GET', `/emails/${emails[0].id}`);
    const items = (await rest('GET', '/tiktok/library?limit=50')).data as { id: string; media: { type: string } }[];
    await rest('GET', `/tiktok/library/${items.find((item) => item.media.type === 'carousel')!.id}`);
    await rest('POST', '/google-ads/query', { limit: 50 });
    await rest('GET', '/products?limit=50');
    for (const facet of ['shopify-apps', 'technologies', 'pixels']) await rest('GET', `/facets/${facet}?limit=5`);
    await rest('POST', '/brandtrackers', { facebookPageId: advertisers[0].id });
    await rest('GET', '/brandtrackers');

    const fields = new Set(found.map(({ path }) => path.replace(/\[\d+\]/g, '[]')));
    for (const field of ['.data[].media.thumbnailUrl', '.data[].media.mediaUrl', '.data[].advertiser.logoUrl', '.data.logoUrl', '.data[].screenshotUrl',
      '.data[].catalog.bestSellers[].imageUrl', '.data[].latestAds[].thumbnailUrl', '.data[].content.screenshotUrl', '.data[].media.imageUrls[]',
      '.data[].profile.avatarUrl', '.data[].shop.logoUrl', '.data[].shop.faviconUrl', '.data[].media.url', '.data[].ads.previewUrls[]', '.data[].iconUrl', '.data[].avatarUrl']) {
      expect([...fields], field).toContain(field);
    }
    const wrong = found.filter(({ url }) => !url.startsWith(`${BASE}/media/`));
    expect(wrong).toEqual([]);
    // One URL of each field and kind is fetched: the same kind draws the same way.
    const kinds = new Map<string, string>();
    for (const { path, url } of found) kinds.set(`${path.replace(/\[\d+\]/g, '')} ${url.replace(/[0-9a-f]{8}-[0-9a-f-]{27}|\w{6,}/g, '#')}`, url);
    const fetched = [...new Set(kinds.values())];
    for (const url of fetched) await expectServed(url);
    for (const kind of [/ads\/\w+\.mp4$/, /ads\/\w+\.jpg$/, /ads\/\w+-thumb\.jpg$/, /pages\/\d+\.png$/, /shops\/[\w-]+\/logo\.png$/, /shops\/[\w-]+\/favicon\.png$/,
      /shops\/[\w-]+\/screenshot\.jpg$/, /landing-pages\/[\w-]+\/desktop\.jpg$/, /emails\/screenshots\/\d+\.jpg$/, /tiktok\/avatars\/\w+\.jpg$/, /tiktok\/\w+-cover\.jpg$/,
      /tiktok\/\w+\.mp4$/, /tiktok\/\w+-\d+\.jpg$/, /google\/advertisers\/\w+\.png$/, /google\/\w+\.png$/, /google\/\w+\.mp4$/, /products\/\d+\.jpg$/,
      /products\/\d+\/ads\/\d+\.jpg$/, /facets\/apps\/[\w-]+\.png$/, /facets\/technologies\/[\w-]+\.png$/, /facets\/pixels\/[\w-]+\.png$/]) {
      expect(fetched.some((url) => kind.test(url)), String(kind)).toBe(true);
    }
  });

  it('gives the same absolute URLs through GraphQL', async () => {
    const res = await t.graphql(
      `{
        adsQuery(limit: 10) { data { media { thumbnailUrl mediaUrl } advertiser { logoUrl } } }
        shops(limit: 5) { data { screenshotUrl catalog { bestSellers { imageUrl } } latestAds { mediaUrl thumbnailUrl } } }
        tiktokLibrary(limit: 10) { data { media { thumbnailUrl mediaUrl videoUrl imageUrls medias { url } } profile { avatarUrl } shop { logoUrl faviconUrl } } }
        googleAdsQuery(limit: 10) { data { media { url } advertiser { logoUrl } } }
        emailsQuery(limit: 5) { data { content { screenshotUrl } } }
      }`,
      undefined,
      key,
    );
    expect(res.body.errors).toBeUndefined();
    const urls = mediaUrlsIn(res.body.data);
    expect(urls.length).toBeGreaterThan(50);
    expect(urls.filter(({ url }) => !url.startsWith(`${BASE}/media/`))).toEqual([]);
    expect(urls.map(({ url }) => url)).toContainEqual(expect.stringMatching(/^http:\/\/api\.test\/media\/products\/\d+\.jpg$/));
  });
});

describe('the demo emails\' HTML', () => {
  it('shows images the server serves itself, at absolute URLs', async () => {
    const [{ id }] = (await t.db.pool.query<{ id: number }>(`SELECT id FROM emails WHERE html LIKE '%<td align="center" style="padding:8px"><img%' ORDER BY id LIMIT 1`)).rows;
    const res = await t.rest('GET', `/emails/${id}/html`, { key });
    expect(res.status).toBe(200);
    const html: string = res.body.data.html;
    expect(res.body.data.htmlLength).toBe(html.length);
    const sources = [...html.matchAll(/<img src="([^"]+)"/g)].map((m) => m[1]);
    expect(sources.length).toBeGreaterThan(1); // the logo and the products
    expect(html).not.toContain('src="/media/');
    for (const url of sources) await expectServed(url);
    expect(sources.some((url) => url.endsWith('/logo.png'))).toBe(true);
  });
});

const sizeOf = async (url: string) => sharp(Buffer.from(await (await t.app.fetch(url)).arrayBuffer())).metadata();

describe('the /media routes', () => {
  it('answer a range of a video, as a <video> asks', async () => {
    const whole = await t.app.fetch(`${BASE}/media/ads/facebook_1.mp4`);
    const size = (await whole.arrayBuffer()).byteLength;
    const part = await t.app.fetch(`${BASE}/media/ads/facebook_1.mp4`, { headers: { range: 'bytes=0-99' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 0-99/${size}`);
    expect((await part.arrayBuffer()).byteLength).toBe(100);
  });

  it('draw a thumbnail as its image, smaller, and a logo as a square PNG', async () => {
    const image = await sizeOf(`${BASE}/media/ads/facebook_1.jpg`);
    const thumbnail = await sizeOf(`${BASE}/media/ads/facebook_1-thumb.jpg`);
    expect(thumbnail.width).toBeLessThan(image.width);
    const screenshot = await sizeOf(`${BASE}/media/shops/s-1/screenshot.jpg`);
    expect(screenshot.height).toBeGreaterThan(screenshot.width);
    const logo = await t.app.fetch(`${BASE}/media/pages/123.png`, { method: 'HEAD' });
    expect([logo.status, logo.headers.get('content-type')]).toEqual([200, 'image/png']);
  });

  it('answer 404 for paths they do not serve, and 405 for a method they do not answer', async () => {
    for (const path of ['/media/ads/x.gif', '/media/shops/1/logo.jpg']) {
      const res = await t.app.fetch(`${BASE}${path}`);
      expect(res.status, path).toBe(404);
      expect((await res.json()).error.code).toBe('not_found');
    }
    const post = await t.app.fetch(`${BASE}/media/ads/1.jpg`, { method: 'POST' });
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
    expect((await post.json()).error.code).toBe('method_not_allowed');
  });

  it('answer 416 for a range past the end, and the whole body for a range they do not read', async () => {
    const size = (await (await t.app.fetch(`${BASE}/media/ads/facebook_1.mp4`)).arrayBuffer()).byteLength;
    for (const range of [`bytes=${size}-`, 'bytes=999999999-', 'bytes=-0']) {
      const res = await t.app.fetch(`${BASE}/media/ads/facebook_1.mp4`, { headers: { range } });
      expect([res.status, res.headers.get('content-range')], range).toEqual([416, `bytes */${size}`]);
    }
    for (const range of ['bytes=5-2', 'bytes=0-1,5-9', 'items=0-1', `bytes=${'9'.repeat(40)}-`]) {
      const res = await t.app.fetch(`${BASE}/media/ads/facebook_1.mp4`, { headers: { range } });
      expect([res.status, (await res.arrayBuffer()).byteLength], range).toEqual([200, size]);
    }
  });

  it('draw for one address at its bucket\'s rate: a path cycled to dodge the cache is refused with 429, cached ones still answer', async () => {
    const limited = await createTestApp(undefined, { database: t.db, rateLimits: { read: { capacity: 1, perSecond: 0.001 }, write: { capacity: 1, perSecond: 0.001 } } });
    try {
      const get = (path: string) => limited.app.fetch(`${BASE}${path}`);
      for (const n of [1, 2, 3, 4]) expect((await get(`/media/pages/cycled-${n}.png`)).status).toBe(200); // 4 × the read bucket
      const refused = await get('/media/pages/cycled-5.png');
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect((await refused.json()).error.code).toBe('rate_limited');
      expect((await get('/media/pages/cycled-2.png')).status).toBe(200); // cached: nothing to draw
      expect((await get('/media/ads/cycled-6.mp4')).status).toBe(200); // the clip is never drawn
    } finally {
      await limited.close();
    }
  });
});

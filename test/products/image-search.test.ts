import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { decodeImage } from '../../src/data/images/decode.js';
import { drawDesign, encodeJpeg, FINGERPRINT_SIZE } from '../../src/data/images/draw.js';
import { fingerprint, hammingDistance } from '../../src/data/images/fingerprint.js';
import { isPrivateAddress } from '../../src/net/address-guard.js';
import { createTestApp, type HttpResult, type TestApp } from '../support/app.js';
import { expectViolation } from '../support/assertions.js';
import { recordStatements, statementsSettled } from '../support/statements.js';
import { DESIGN, imageScenario, resample } from './image-scenario.js';
import { P, SHOP } from './scenario.js';

let t: TestApp;
let key: string;
let otherKey: string;
let workspaceId: string;
let otherWorkspaceId: string;
beforeAll(async () => {
  t = await createTestApp(imageScenario);
  ({ apiKey: key, workspaceId } = await t.newKey());
  ({ apiKey: otherKey, workspaceId: otherWorkspaceId } = await t.newKey());
});
afterAll(() => t?.close());
afterEach(() => {
  delete process.env.IMAGE_FETCH_ALLOW_PRIVATE;
});

/** A copy of a design as a client would hold it: drawn large, resized, re-encoded as JPEG. */
const copyOf = (design: number, size = 300, crop = 0, quality = 70) => encodeJpeg(resample(drawDesign(design, 512), size, size, crop), quality);
const pngOf = (design: number, size: number, crop = 0) => {
  const { data } = resample(drawDesign(design, 512), size, size, crop);
  return sharp(data, { raw: { width: size, height: size, channels: 4 } }).png().toBuffer();
};

async function upload(path: string, bytes: Buffer, fields: Record<string, string> = {}, k = key, name = 'image'): Promise<HttpResult> {
  const form = new FormData();
  form.append(name, new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'photo.jpg');
  for (const [field, value] of Object.entries(fields)) form.append(field, value);
  const response = await t.app.fetch(`http://api.test/v1${path}`, { method: 'POST', headers: { authorization: `Bearer ${k}` }, body: form });
  return { status: response.status, headers: response.headers, body: await response.json() };
}
const search = (body: unknown, k = key) => t.rest('POST', '/products/image-search', { key: k, body });
const productIds = (res: HttpResult): string[] => {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.map((match: { product: { id: string } }) => match.product.id);
};

describe('fingerprints', () => {
  it('a resized, re-encoded copy keeps its hash within a few bits; other designs are far', async () => {
    const stored = fingerprint(drawDesign(11, FINGERPRINT_SIZE));
    const copy = fingerprint(await decodeImage(copyOf(11, 180, 0, 60)));
    expect(hammingDistance(stored.phash, copy.phash)).toBeLessThanOrEqual(6);
    for (const other of [22, 33, 44, 55, 66, 77, 88]) expect(hammingDistance(stored.phash, fingerprint(drawDesign(other, FINGERPRINT_SIZE)).phash)).toBeGreaterThan(10);
  });
});

describe('POST /v1/products/image-search', () => {
  it('finds the product of a resized, re-encoded copy first, with every product showing the same picture', async () => {
    const res = await upload('/products/image-search', copyOf(DESIGN.A1));
    expect(Object.keys(res.body)).toEqual(['requestId', 'data', 'pagination', 'meta']);
    const found = productIds(res);
    expect(new Set(found.slice(0, 2))).toEqual(new Set([P.A1, P.C1]));
    expect(res.body.data[0].score).toBeGreaterThanOrEqual(0.9);
    expect(Object.keys(res.body.data[0])).toEqual(['score', 'product']);
    expect(res.body.data[0].product.imageUrl).toBe('http://api.test/media/products/11.jpg');
    expect(res.body.pagination).toEqual({ limit: 20, offset: 0, total: found.length });
    expect(res.body.meta.searchId).toMatch(/^[0-9a-f-]{36}$/);
    for (const [i, match] of res.body.data.entries()) if (i > 0) expect(match.score).toBeLessThanOrEqual(res.body.data[i - 1].score);
    expect(res.headers.get('x-usage-cost')).toBe(String(found.length));
  });

  it('copies resized and re-encoded as JPEG or PNG, at other sizes and shapes, find the products of the picture first', async () => {
    const original = (design: number) => encodeJpeg(drawDesign(design, 512), 92);
    const variants: Record<string, (design: number) => Promise<Buffer>> = {
      'JPEG 1000 px': (design) => sharp(original(design)).resize(1000, 1000).jpeg({ quality: 80 }).toBuffer(),
      'progressive JPEG 240×150': (design) => sharp(original(design)).resize(240, 150, { fit: 'fill' }).jpeg({ quality: 75, progressive: true }).toBuffer(),
      'PNG 97 px': (design) => pngOf(design, 97),
      'PNG 700 px': (design) => pngOf(design, 700),
    };
    for (const design of new Set(Object.values(DESIGN))) {
      const showing = (Object.keys(DESIGN) as (keyof typeof DESIGN)[]).filter((name) => DESIGN[name] === design).map((name) => P[name]);
      for (const [variant, copy] of Object.entries(variants)) {
        const res = await search({ image: (await copy(design)).toString('base64') });
        expect(new Set(productIds(res).slice(0, showing.length)), `design ${design}, ${variant}`).toEqual(new Set(showing));
        expect(res.body.data[0].score, `design ${design}, ${variant}`).toBeGreaterThanOrEqual(0.9);
      }
    }
  });

  it('a slightly cropped PNG copy still finds its product first', async () => {
    const found = productIds(await upload('/products/image-search', await pngOf(DESIGN.B1, 260, 0.05)));
    expect(found[0]).toBe(P.B1);
  });

  it('takes the image base64-encoded in JSON too (and `file` as the multipart field), with the same answer', async () => {
    const bytes = copyOf(DESIGN.B2);
    const viaForm = productIds(await upload('/products/image-search', bytes, {}, key, 'file'));
    const viaJson = productIds(await search({ image: bytes.toString('base64') }));
    const viaDataUrl = productIds(await search({ image: `data:image/jpeg;base64,${bytes.toString('base64')}` }));
    expect(viaForm[0]).toBe(P.B2);
    expect(viaJson).toEqual(viaForm);
    expect(viaDataUrl).toEqual(viaForm);
  });

  it('continues a search with searchId and offset, in this workspace only; an expired one says so', async () => {
    const first = await upload('/products/image-search', copyOf(DESIGN.A1), { limit: '1' });
    const all = productIds(await search({ searchId: first.body.meta.searchId, limit: 50 }));
    expect(productIds(first)).toEqual(all.slice(0, 1));
    const second = await search({ searchId: first.body.meta.searchId, offset: 1, limit: 1 });
    expect(productIds(second)).toEqual(all.slice(1, 2));
    expect(second.body.pagination).toEqual({ limit: 1, offset: 1, total: all.length });
    expect(second.body.meta).toEqual(first.body.meta);

    const missing = await search({ searchId: '00000000-0000-4000-8000-000000000000' });
    const foreign = await search({ searchId: first.body.meta.searchId }, otherKey);
    expect(missing.status).toBe(404);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('not_found');
    expect(foreign.body.error.message.replace(first.body.meta.searchId, 'ID')).toBe(missing.body.error.message.replace('00000000-0000-4000-8000-000000000000', 'ID'));
    // Product searches and shop searches are kept apart.
    expect((await t.rest('POST', '/shops/image-search', { key, body: { searchId: first.body.meta.searchId } })).status).toBe(404);

    await t.db.prisma.imageSearch.update({ where: { id: first.body.meta.searchId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await search({ searchId: first.body.meta.searchId });
    expect(expired.status).toBe(404);
    expect(expired.body.error.message).toMatch(/has expired/);
  });

  it('takes three statements of its own (the nearest pictures, keeping the search, its products); a workspace\'s searches expired a day ago go', async () => {
    const old = { kind: 'products', resultIds: [P.A1], scores: [1], expiresAt: new Date(Date.now() - 25 * 60 * 60 * 1000) };
    const oldMine = await t.db.prisma.imageSearch.create({ data: { ...old, workspaceId } });
    const oldTheirs = await t.db.prisma.imageSearch.create({ data: { ...old, workspaceId: otherWorkspaceId } });
    await statementsSettled(t.db);
    const recorder = recordStatements();
    try {
      const found = productIds(await search({ image: copyOf(DESIGN.B2).toString('base64') }));
      expect(found[0]).toBe(P.B2);
      // Not counted: the credit ledger's, and the plan read once per request for EU figures.
      expect(recorder.own().filter((text) => !/"credit_|usage_records/.test(text))).toHaveLength(3);
    } finally {
      recorder.restore();
    }
    expect(await t.db.prisma.imageSearch.findUnique({ where: { id: oldMine.id } })).toBeNull();
    expect(await t.db.prisma.imageSearch.findUnique({ where: { id: oldTheirs.id } })).not.toBeNull();
  });

  it('refuses what is not a JPEG or PNG image, and bad arguments, naming the field', async () => {
    expectViolation(await search({}), 'body.image', /should not be empty/);
    expectViolation(await search({ image: copyOf(11).toString('base64'), imageUrl: 'https://example.com/a.jpg' }), 'body.imageUrl', /together with image/);
    expectViolation(await upload('/products/image-search', Buffer.from('GIF89a\x01\x00\x01\x00')), 'body.image', /JPEG or PNG/);
    expectViolation(await upload('/products/image-search', Buffer.concat([Buffer.from('RIFF\x00\x00\x00\x00WEBPVP8 '), Buffer.alloc(32)])), 'body.image', /WebP/);
    // Formats libvips could read are still refused: only JPEG and PNG reach it.
    const tiny = sharp({ create: { width: 8, height: 8, channels: 3, background: '#808080' } });
    expectViolation(await upload('/products/image-search', await tiny.clone().webp().toBuffer()), 'body.image', /WebP/);
    expectViolation(await upload('/products/image-search', await tiny.clone().gif().toBuffer()), 'body.image', /JPEG or PNG/);
    expectViolation(await upload('/products/image-search', await tiny.clone().tiff().toBuffer()), 'body.image', /JPEG or PNG/);
    expectViolation(await upload('/products/image-search', Buffer.concat([copyOf(11).subarray(0, 200), Buffer.alloc(50)])), 'body.image', /could not be decoded/);
    expectViolation(await search({ image: '%%% not base64 %%%' }), 'body.image', /base64/);
    expectViolation(await search({ searchId: 'abc' }), 'body.searchId');
    expectViolation(await search({ searchId: '00000000-0000-4000-8000-000000000000', limit: 51 }), 'body.limit');
    expectViolation(await search({ searchId: '00000000-0000-4000-8000-000000000000', offset: -1 }), 'body.offset');
    expectViolation(await upload('/products/image-search', copyOf(11), { limit: 'ten' }), 'body.limit');
  });

  it('a body over the limit is refused before it is read', async () => {
    const res = await upload('/products/image-search', Buffer.alloc(1024 * 1024 + 10, 1));
    expectViolation(res, 'body');
  });

  it('REST and GraphQL return the same matches', async () => {
    const image = copyOf(DESIGN.C2).toString('base64');
    const rest = await search({ image });
    const gql = await t.graphql(`query($i: String) { productsImageSearch(image: $i) { data { score product { id title } } pagination { total } } }`, { i: image }, key);
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.productsImageSearch.data.map((m: { product: { id: string } }) => m.product.id)).toEqual(productIds(rest));
    expect(gql.body.data.productsImageSearch.data[0].score).toBe(rest.body.data[0].score);
  });
});

describe('imageUrl', () => {
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    server = http.createServer((request, response) => {
      if (request.url === '/b1.jpg') response.writeHead(200, { 'content-type': 'image/jpeg' }).end(copyOf(DESIGN.B1));
      else if (request.url === '/moved') response.writeHead(302, { location: '/b1.jpg' }).end();
      else if (request.url === '/loop') response.writeHead(302, { location: '/loop' }).end();
      else if (request.url === '/huge') response.writeHead(200, { 'content-type': 'image/jpeg' }).end(Buffer.alloc(6 * 1024 * 1024));
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('refuses private, loopback and link-local addresses, other schemes and credentials (SSRF)', async () => {
    for (const imageUrl of [
      `${base}/b1.jpg`, 'http://localhost/a.jpg', 'http://169.254.169.254/latest/meta-data/', 'http://[::1]/a.jpg', 'http://10.1.2.3/a.jpg',
      'http://192.168.0.1/a.jpg', 'http://[::ffff:127.0.0.1]/a.jpg', 'http://[::127.0.0.1]/a.jpg', 'http://[2002:a00:1::]/a.jpg',
      'http://[64:ff9b::169.254.169.254]/a.jpg', 'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/a.jpg', 'http://0.0.0.0/a.jpg', 'file:///etc/passwd', 'ftp://example.com/a.jpg',
      'gopher://example.com/', 'http://user:secret@example.com/a.jpg', 'not a url',
    ]) {
      expectViolation(await search({ imageUrl }), 'body.imageUrl');
    }
    expect(['127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '::1', 'fe80::1', 'fd00::1', '::ffff:10.0.0.1'].filter((a) => !isPrivateAddress(a))).toEqual([]);
    expect(['93.184.216.34', '2606:4700::1111', '8.8.8.8'].filter(isPrivateAddress)).toEqual([]);
  });

  it('refuses an IPv6 address that leads to a loopback IPv4 one before connecting to it', async () => {
    let connections = 0;
    const dualStack = http.createServer((_request, response) => response.writeHead(200, { 'content-type': 'image/jpeg' }).end(copyOf(DESIGN.B1)));
    dualStack.on('connection', () => connections++);
    await new Promise<void>((resolve) => dualStack.listen(0, '::', resolve));
    const port = (dualStack.address() as AddressInfo).port;
    try {
      for (const host of ['[::7f00:1]', '[::ffff:7f00:1]', '[::ffff:0:7f00:1]', '[2002:7f00:1::]', '[64:ff9b::7f00:1]', '[2001:0:4136:e378:8000:63bf:80ff:fffe]']) {
        expectViolation(await search({ imageUrl: `http://${host}:${port}/b1.jpg` }), 'body.imageUrl', /must point to a public address/);
      }
      expect(connections).toBe(0);
      // The same server is reached through the IPv4-mapped form once private addresses are allowed.
      process.env.IMAGE_FETCH_ALLOW_PRIVATE = 'true';
      expect(productIds(await search({ imageUrl: `http://[::ffff:7f00:1]:${port}/b1.jpg` }))[0]).toBe(P.B1);
      expect(connections).toBe(1);
    } finally {
      await new Promise<void>((resolve) => dualStack.close(() => resolve()));
    }
  });

  it('an operator may allow private addresses: then the image is fetched, redirects followed, sizes bounded', async () => {
    process.env.IMAGE_FETCH_ALLOW_PRIVATE = 'true';
    expect(productIds(await search({ imageUrl: `${base}/b1.jpg` }))[0]).toBe(P.B1);
    expect(productIds(await search({ imageUrl: `${base}/moved` }))[0]).toBe(P.B1);
    expectViolation(await search({ imageUrl: `${base}/loop` }), 'body.imageUrl', /redirected more than 3 times/);
    expectViolation(await search({ imageUrl: `${base}/huge` }), 'body.imageUrl', /at most/);
    expectViolation(await search({ imageUrl: `${base}/missing.jpg` }), 'body.imageUrl', /HTTP 404/);
  });
});

describe('POST /v1/shops/image-search', () => {
  const shopIds = (res: HttpResult): string[] => {
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.map((match: { shop: { id: string } }) => match.shop.id);
  };

  it('finds the shops selling the pictured product, each once; groupBrands keeps one shop per brand', async () => {
    const found = shopIds(await upload('/shops/image-search', copyOf(DESIGN.A1)));
    expect(new Set(found.slice(0, 2))).toEqual(new Set([SHOP.A, SHOP.C]));
    expect(new Set(found).size).toBe(found.length);
    const grouped = await upload('/shops/image-search', copyOf(DESIGN.A1), { groupBrands: 'true' });
    const groupedIds = shopIds(grouped);
    expect(groupedIds.filter((id) => id === SHOP.A || id === SHOP.C)).toHaveLength(1);
    expect(grouped.body.data[0].score).toBeGreaterThanOrEqual(0.9);
  });

  it('REST and GraphQL agree', async () => {
    const image = copyOf(DESIGN.B1).toString('base64');
    const rest = await t.rest('POST', '/shops/image-search', { key, body: { image } });
    const gql = await t.graphql(`query($i: String) { shopsImageSearch(image: $i) { data { shop { id domain } } } }`, { i: image }, key);
    expect(gql.body.data.shopsImageSearch.data.map((m: { shop: { id: string } }) => m.shop.id)).toEqual(shopIds(rest));
    expect(shopIds(rest)[0]).toBe(SHOP.B);
  });
});

describe('the server\'s own media', () => {
  it('serves a product design as a JPEG without a key, the picture the index holds', async () => {
    const response = await t.app.fetch('http://api.test/media/products/22.jpg');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    const served = fingerprint(await decodeImage(new Uint8Array(await response.arrayBuffer())));
    expect(hammingDistance(served.phash, fingerprint(drawDesign(22, FINGERPRINT_SIZE)).phash)).toBeLessThanOrEqual(4);
    expect((await t.app.fetch('http://api.test/media/products/abc.jpg')).status).toBe(404);
    expect((await t.app.fetch('http://api.test/media/other/1.png')).status).toBe(404);
  });

  it('the nearest-neighbour query can be answered by the GiST index', async () => {
    const client = await t.db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL enable_seqscan = off');
      const { rows } = await client.query(`EXPLAIN SELECT "id" FROM "image_fingerprints" ORDER BY "features" <-> cube(array[0.1,0.2]::float8[]) LIMIT 10`);
      expect(rows.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/Index Scan using image_fingerprints_features_idx/);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });
});

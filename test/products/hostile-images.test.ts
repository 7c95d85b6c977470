import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type HttpResult, type TestApp } from '../support/app.js';
import { hostileImages, type HostileImage } from './image-hostile.js';
import { imageScenario } from './image-scenario.js';

// Hostile images sent to both image-search routes, uploaded and by imageUrl: each is answered 200 or a 400 naming the
// image (never a 5xx, never a dead process), the process's memory stays bounded, and the server keeps answering other
// requests while images decode. The app runs in this process (app.fetch), so its RSS is this process's.

const ROUTES = ['/products/image-search', '/shops/image-search'] as const;
const MB = 1024 * 1024;
const RSS_GROWTH_LIMIT = 250 * MB;

let t: TestApp;
let key: string;
let images: HostileImage[];
let server: http.Server;
let base: string;
let baseline = 0;
let peak = 0;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);

beforeAll(async () => {
  t = await createTestApp(imageScenario);
  ({ apiKey: key } = await t.newKey());
  images = await hostileImages();
  const byPath = new Map(images.map((image) => [`/${image.name}`, image.bytes]));
  server = http.createServer((request, response) => {
    const bytes = byPath.get(request.url ?? '');
    if (bytes) response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(bytes);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // A first search loads libvips and warms the app up: what grows after it is what images cost.
  expect((await upload(ROUTES[0], images.find((image) => image.name === 'progressive-3000.jpg')!.bytes)).status).toBe(200);
  baseline = peak = process.memoryUsage().rss;
});
afterAll(async () => {
  clearInterval(sampler);
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  await t?.close();
});
afterEach(() => {
  delete process.env.IMAGE_FETCH_ALLOW_PRIVATE;
  expect(peak - baseline, `RSS grew by ${Math.round((peak - baseline) / MB)} MB`).toBeLessThan(RSS_GROWTH_LIMIT);
});

async function upload(path: string, bytes: Buffer): Promise<HttpResult> {
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(bytes)], { type: 'application/octet-stream' }), 'image');
  const response = await t.app.fetch(`http://api.test/v1${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

const byUrl = (path: string, image: HostileImage) => t.rest('POST', path, { key, body: { imageUrl: `${base}/${image.name}` } });

function expectAnswer(image: HostileImage, res: HttpResult, field: string, how: string) {
  const what = `${image.name} ${how}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
  expect(image.expected, what).toContain(res.status);
  if (res.status !== 400) return;
  expect(res.body.error.code, what).toBe('validation_error');
  expect(res.body.error.details.validationErrors.map((v: { field: string }) => v.field), what).toEqual([field]);
  if (image.pattern) expect(res.body.error.details.validationErrors[0].expected.join(' '), what).toMatch(image.pattern);
}

describe('hostile images', () => {
  it('each is answered 200 or a 400 naming the image on both routes, uploaded or fetched from imageUrl, within bounded memory', async () => {
    process.env.IMAGE_FETCH_ALLOW_PRIVATE = 'true';
    for (const image of images) {
      for (const path of ROUTES) {
        expectAnswer(image, await upload(path, image.bytes), 'body.image', `uploaded to ${path}`);
        expectAnswer(image, await byUrl(path, image), 'body.imageUrl', `by imageUrl to ${path}`);
      }
    }
  });

  it('/v1/health answers while six decompression bombs decode, long before they are done', async () => {
    const bomb = images.find((image) => image.name === 'png16-zeros-4000.png')!;
    const finished: number[] = [];
    const bombs = Array.from({ length: 6 }, (_, i) => upload(ROUTES[i % 2], bomb.bytes).finally(() => finished.push(performance.now())));
    const health: { latency: number; at: number; status: number }[] = [];
    while (finished.length < bombs.length) {
      const sent = performance.now();
      const response = await t.app.fetch('http://api.test/v1/health');
      await response.arrayBuffer();
      health.push({ latency: performance.now() - sent, at: performance.now(), status: response.status });
      await sleep(10);
    }
    expect((await Promise.all(bombs)).map((res) => res.status)).toEqual(Array(6).fill(200));
    expect(health.every((h) => h.status === 200)).toBe(true);
    // Between the first bomb's answer and the last one's, others are still decoding: health answers meanwhile.
    expect(health.filter((h) => h.at > finished[0] && h.at < finished[5]).length).toBeGreaterThan(0);
    expect(Math.max(...health.map((h) => h.latency))).toBeLessThan(2_000);
  });

  it('images that would wait behind too many others are refused with 429 rate_limited and Retry-After, the rest answered', async () => {
    const bomb = images.find((image) => image.name === 'png16-zeros-4000.png')!;
    const answers = await Promise.all(Array.from({ length: 24 }, (_, i) => upload(ROUTES[i % 2], bomb.bytes)));
    expect(answers.filter((res) => res.status !== 200 && res.status !== 429).map((res) => res.body)).toEqual([]);
    const refused = answers.filter((res) => res.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.length).toBeLessThan(answers.length);
    expect(refused[0].body.error.code).toBe('rate_limited');
    expect(refused[0].headers.get('retry-after')).toBe('1');
  });
});

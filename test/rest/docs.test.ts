import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

it('serves the OpenAPI document without a key, listing exactly the routed paths', async () => {
  const res = await t.rest('GET', '/openapi.json');
  expect(res.status).toBe(200);
  expect(res.body.openapi).toBe('3.1.0');
  expect(Object.keys(res.body.paths)).toContain('/v1/ads/{adId}');
  expect(Object.keys(res.body.paths)).not.toContain('/v1/webhook');
  expect(res.body.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
});

it('serves its reader at /v1/docs from the package itself, with no address outside the server', async () => {
  const page = await t.app.fetch('http://api.test/v1/docs');
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  const html = await page.text();
  expect(html).toContain('SwaggerUIBundle');
  expect(html).not.toMatch(/(src|href)="https?:/);
  for (const [asset, type] of [['swagger-ui-bundle.js', /javascript/], ['swagger-ui.css', /css/], ['swagger-ui-standalone-preset.js', /javascript/]] as const) {
    const res = await t.app.fetch(`http://api.test/v1/docs/assets/${asset}`);
    expect(res.status, asset).toBe(200);
    expect(res.headers.get('content-type')).toMatch(type);
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(1000);
  }
  expect((await t.app.fetch('http://api.test/v1/docs/assets/package.json')).status).toBe(404);
  expect((await t.app.fetch('http://api.test/v1/docs/assets/..%2Fpackage.json')).status).toBe(404);
});

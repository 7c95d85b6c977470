import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

// GET /v1/docs: a reader for /v1/openapi.json (Swagger UI), served entirely from the swagger-ui-dist
// package so it works without the internet. Open and unmetered.

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const distDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const cache = new Map<string, Uint8Array<ArrayBuffer>>();

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <title>Market Intelligence API · REST reference</title>
  <link rel="icon" href="docs/assets/favicon-32x32.png" />
  <link rel="stylesheet" href="docs/assets/swagger-ui.css" />
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="docs/assets/swagger-ui-bundle.js"></script>
  <script src="docs/assets/swagger-ui-standalone-preset.js"></script>
  <script>
    window.ui = SwaggerUIBundle({
      url: new URL('openapi.json', location.href.replace(/docs\\/?$/, '')).href,
      dom_id: '#swagger-ui',
      presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
      layout: 'BaseLayout',
      persistAuthorization: true,
    });
  </script>
</body>
</html>`;

/** The docs page or one of its assets for a path below /v1, or null when the path is not the docs'. */
export async function docsResponse(method: string, pathname: string): Promise<Response | null> {
  if (method !== 'GET') return null;
  if (pathname === '/docs' || pathname === '/docs/') {
    // The page's relative links resolve against /v1/, so /v1/docs/ is sent to /v1/docs.
    if (pathname.endsWith('/')) return new Response(null, { status: 308, headers: { location: '../docs' } });
    return new Response(PAGE, { headers: { 'content-type': 'text/html; charset=utf-8' } });
  }
  const asset = /^\/docs\/assets\/([\w.-]+)$/.exec(pathname)?.[1];
  if (!asset || !(asset in ASSETS)) return null;
  let body = cache.get(asset);
  if (!body) {
    body = new Uint8Array(await readFile(path.join(distDir, asset)));
    cache.set(asset, body);
  }
  return new Response(body, { headers: { 'content-type': ASSETS[asset], 'cache-control': 'public, max-age=86400' } });
}


import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../src/db/root.js';
import { schema } from '../src/schema/index.js';
import { openApiDocument } from './openapi.js';
import { routes } from './routes.js';

/** The committed OpenAPI document (a test fails when the served one differs): `npm run openapi:print` after a route or schema change. */
export const OPENAPI_FILE = path.join(projectRoot, 'rest', 'openapi.json');

export function printedOpenApi(): string {
  return `${JSON.stringify(openApiDocument(schema, routes), null, 2)}\n`;
}

if (process.argv[1] && import.meta.filename === path.resolve(process.argv[1])) {
  writeFileSync(OPENAPI_FILE, printedOpenApi());
  console.log(`wrote ${path.relative(process.cwd(), OPENAPI_FILE)}`);
}

import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { printedSchema, schemaPath } from '../../src/schema/print.js';

it('graphql/schema.graphql is the schema the server serves (run `npm run schema:print` after a schema change)', async () => {
  expect(await readFile(schemaPath, 'utf8')).toBe(printedSchema());
});

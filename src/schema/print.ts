import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { printSchema } from 'graphql';
import { schema } from './index.js';

// `npm run schema:print`: writes the SDL both surfaces serve to graphql/schema.graphql (committed; a test compares).
export const schemaPath = path.resolve(import.meta.dirname, '../../graphql/schema.graphql');
export const printedSchema = () => `${printSchema(schema)}\n`;

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  await writeFile(schemaPath, printedSchema());
  console.log(`wrote ${path.relative(process.cwd(), schemaPath)}`);
}

import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { schema } from './index.js';

// `npm run schema:print`: writes the SDL both surfaces serve to graphql/schema.graphql (committed; a test compares).
export const schemaPath = path.resolve(import.meta.dirname, '../../graphql/schema.graphql');
export const printedSchema = () => `${printSchema(schema)}\n`;

// `npm run -s schema:print -- --sorted` prints the SDL sorted by name to stdout instead: two schemas that differ only in
// the order their types were registered in print the same there.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  if (process.argv.includes('--sorted')) {
    process.stdout.write(`${printSchema(lexicographicSortSchema(schema))}\n`);
  } else {
    await writeFile(schemaPath, printedSchema());
    console.log(`wrote ${path.relative(process.cwd(), schemaPath)}`);
  }
}

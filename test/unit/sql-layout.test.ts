import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// One SQL layout (issue #34): inside a domain folder src/schema/<domain>/, SQL and Prisma calls are written only in
// service.ts or, for a domain too big for one file, in service/*.ts, which service.ts re-exports. Every other file of
// the domain declares GraphQL (types, enums, inputs, args, queries, mutations) or derives values in TypeScript, and
// calls the service. src/schema/shared/ is the toolkit (the list engine, facets, the workspace filter): not a domain.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCHEMA = 'src/schema';

/** A line that writes SQL or calls Prisma: raw statements, Prisma.sql/raw, a pool's query, a model's operation. */
const SQL_LINE =
  /\$queryRaw|\$executeRaw|Prisma\.sql|Prisma\.raw|\bsql`|\.query(<[^>]*>)?\(|\b\w+\.(\w+)\.(findMany|findFirst|findFirstOrThrow|findUnique|findUniqueOrThrow|create|createMany|update|updateMany|delete|deleteMany|upsert|count|aggregate|groupBy)\(/;

/** The files that still hold SQL outside their domain's service today. The list only shrinks. */
const NOT_YET_IN_SERVICE: string[] = [
];

function files(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return files(file);
    return entry.name.endsWith('.ts') ? [file] : [];
  });
}

const inService = (file: string) => /^src\/schema\/[^/]+\/(service\.ts|service\/)/.test(file);
const inDomain = (file: string) => /^src\/schema\/([^/]+)\//.exec(file)?.[1] !== 'shared' && file.split('/').length > 3;

describe('one SQL layout', () => {
  const withSql = files(SCHEMA)
    .filter((file) => inDomain(file) && !inService(file))
    .filter((file) => readFileSync(path.join(ROOT, file), 'utf8').split('\n').some((line) => SQL_LINE.test(line)));

  it('writes SQL and Prisma calls of a domain only in its service.ts or service/ (or lists the file, for now)', () => {
    expect(withSql.filter((file) => !NOT_YET_IN_SERVICE.includes(file))).toEqual([]);
  });

  it('lists only files that still hold SQL outside the service (the list only shrinks)', () => {
    expect(NOT_YET_IN_SERVICE.filter((file) => !withSql.includes(file))).toEqual([]);
  });

  it('recognises a statement, a Prisma call and a pool query', () => {
    for (const line of ['await prisma.$queryRaw`SELECT 1`', 'Prisma.sql`a = ${b}`', 'context.pool.query(text, values)', 'tx.board.findMany({})', 'db.boardItem.deleteMany({ where })']) {
      expect(SQL_LINE.test(line), line).toBe(true);
    }
    expect(SQL_LINE.test("import { findAds } from './service.js';")).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { prepared, prismaStatementName, statementName } from '../../src/db/statements.js';

describe('prepared statement names', () => {
  it('names a text the same way every time, and different texts differently', () => {
    const one = statementName('SELECT "id" FROM "ads" WHERE "id" = $1');
    expect(one).toMatch(/^mi_[0-9a-f]{24}$/);
    expect(statementName('SELECT "id" FROM "ads" WHERE "id" = $1')).toBe(one);
    expect(statementName('SELECT "id" FROM "ads" WHERE "id" = $2')).not.toBe(one);
    expect(prepared('SELECT "id" FROM "ads" WHERE "id" = $1', ['x'])).toEqual({ name: one, text: 'SELECT "id" FROM "ads" WHERE "id" = $1', values: ['x'] });
  });

  it('leaves texts that change with the length of a list unnamed', () => {
    expect(statementName('SELECT "t0"."id" FROM "public"."ads" AS "t0" WHERE "t0"."id" IN ($1,$2,$3)')).toBeUndefined();
    expect(statementName('SELECT "t0"."id" FROM "public"."ads" AS "t0" WHERE "t0"."workspaceId" IN ($1::uuid, $2::uuid)')).toBeUndefined();
    expect(statementName('INSERT INTO "t" ("a", "b") VALUES ($1,$2), ($3,$4)')).toBeUndefined();
    expect(statementName('SELECT "t0"."id" FROM "public"."ads" AS "t0" WHERE "t0"."id" IN ($1)')).toBeDefined();
    expect(statementName('SELECT LEAST($1, $2)')).toBeDefined();
  });

  it("prepares Prisma's own statements, not the SQL the project composes through $queryRaw", () => {
    expect(prismaStatementName('SELECT "t0"."id" FROM "public"."ads" AS "t0" WHERE "t0"."id" = $1 LIMIT $2')).toMatch(/^mi_/);
    expect(prismaStatementName('UPDATE "public"."credentials" SET "lastUsedAt" = $1 WHERE "id" = $2')).toMatch(/^mi_/);
    expect(prismaStatementName('SELECT a."id" FROM "ads" a WHERE a."searchText" @@ websearch_to_tsquery($1) ORDER BY a."reach" DESC LIMIT $2')).toBe('');
    expect(prismaStatementName('SELECT "t0"."id" FROM "public"."ads" AS "t0" WHERE "t0"."id" IN ($1,$2)')).toBe('');
  });
});

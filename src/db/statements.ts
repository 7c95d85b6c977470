import { createHash } from 'node:crypto';
import type pg from 'pg';

// Statements run as named prepared statements: PostgreSQL parses and plans a text once per connection instead of
// on every call, and after five runs may keep a generic plan when its estimate is no worse than the custom
// ones' (plan_cache_mode auto, as for any driver that prepares statements). Planning was the larger part of the
// database's work on key lookups: an ad's detail (one relation-join statement) and the credit ledger's statements.
// Which ones: Prisma's own statements (key lookups, relation loads, simple filters: fixed shapes whose generic
// plans fit every value) and the project's SQL that opts in with `prepared()`. Searches, rankings and facets the
// project composes from a request's filters ($queryRaw) stay unnamed: their texts vary with the filters, and a
// generic plan could suit one search term or advertiser and not another.
// Bounded, since every connection keeps what it prepared: a text with a list of parameters (`IN ($1,$2,…)`, one
// text per list length, as Prisma writes `in` filters and relation loads; rows of an insert) runs unnamed, and so
// do texts beyond the first MAX_NAMED of a process.

const MAX_NAMED = 500;
const names = new Map<string, string>();
/** `IN ($1,$2` or `IN ($1::uuid, $2` (a list of values) or `), ($3` (rows of values): texts that change with a list's length. */
const PARAMETER_LIST = /\bIN \(\$\d+(?:::[\w"]+)?\s*,|\),\s*\(\$\d+/i;
/** Prisma writes every table with its schema (`FROM "public"."ads"`); the project's own SQL never does. */
const WRITTEN_BY_PRISMA = /\b(?:FROM|INTO|UPDATE|JOIN) "[^"]+"\."[^"]+"/;

/** The name to prepare `text` under (the same for the same text, in every pool), or undefined to run it unnamed. */
export function statementName(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined && names.size < MAX_NAMED && !PARAMETER_LIST.test(text)) {
    name = `mi_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    names.set(text, name);
  }
  return name;
}

/** For Prisma's statementNameGenerator: a name for its own statements, '' (unnamed) for the project's $queryRaw SQL. */
export function prismaStatementName(text: string): string {
  return (WRITTEN_BY_PRISMA.test(text) && statementName(text)) || '';
}

/** A query config that runs `text` as a prepared statement (see statementName): for fixed-shape SQL only. */
export function prepared(text: string, values: unknown[]): pg.QueryConfig<unknown[]> {
  return { name: statementName(text), text, values };
}

/**
 * A CTE (always one row) that turns off the wait for the WAL flush for the statement's own transaction
 * (is_local), for writes that may be lost in a database crash (the credit ledger's, kept image searches). Not on
 * PGlite: the database lives in the server's process and has no WAL writer to flush later, so an asynchronous
 * commit could stay unflushed until some other write, and be lost with the process.
 */
export const ASYNC_COMMIT = `commit_mode AS (
  SELECT CASE WHEN version() LIKE '%PGlite%' THEN NULL ELSE set_config('synchronous_commit', 'off', true) END AS mode)`;

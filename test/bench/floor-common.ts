import { createHash, timingSafeEqual } from 'node:crypto';
import pg from 'pg';

// What every route of the floor (floor.ts and its floor-*.ts route files) shares: the pool, the key lookup folded
// into each data statement, and the few conversions the JSON needs.

export type Row = Record<string, any>;
export type Key = { key: string; prefix: string };
/** A route: its path match, the URL, the key and (POST) the parsed body → the response body, or null for a bad key. */
export type Route = [RegExp, (match: RegExpExecArray, url: URL, key: Key, body: Row) => Promise<Row | null>];

const PUBLIC_BASE_URL = (process.env.PUBLIC_BASE_URL ?? `http://localhost:${process.env.PORT}`).replace(/\/$/, '');

/** A JSON.stringify replacer that answers the server's own media (a stored `/media/...` path) as an absolute URL, as the project does. */
export const absoluteMedia = (_key: string, value: unknown) => (typeof value === 'string' && value.startsWith('/media/') ? `${PUBLIC_BASE_URL}${value}` : value);

export const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 8 });
export const iso = (value: string | Date | null) => (value === null ? null : new Date(value).toISOString());
export const num = (value: string | number | null) => (value === null ? null : Number(value));

/** The key's credential and workspace ($1 = the key's prefix). */
export const AUTH = `auth AS (
  SELECT c."id", c."keyHash", c."name", c."description", c."accessLevel", c."expiresAt", c."createdAt", c."lastUsedAt",
         w."id" AS "workspaceId", w."slug", w."name" AS "workspaceName", w."createdAt" AS "workspaceCreatedAt", x."status" AS access
  FROM "credentials" c JOIN "workspaces" w ON w."id" = c."workspaceId" LEFT JOIN "workspace_api_access" x ON x."workspaceId" = w."id"
  WHERE c."keyPrefix" = $1 AND c."deletedAt" IS NULL AND c."revokedAt" IS NULL)`;

/** The columns authorised() reads, for a statement that selects from its data rather than from auth. */
export const AUTH_COLUMNS = `(SELECT "keyHash" FROM auth) AS "keyHash", (SELECT access FROM auth) AS access`;

export function authorised(key: string, auth: Row | null): boolean {
  if (!auth || !auth.keyHash || auth.access !== 'enabled') return false;
  const hash = createHash('sha256').update(key).digest();
  return timingSafeEqual(hash, auth.keyHash);
}

/**
 * Runs one statement that selects AUTH_COLUMNS and `body` (the response, built as JSON by the statement) in one row:
 * the body when the key is good, null otherwise.
 */
export async function authedBody(key: Key, text: string, values: unknown[]): Promise<Row | null> {
  const { rows: [row] } = await pool.query(text, [key.prefix, ...values]);
  return row && authorised(key.key, row) ? (row.body as Row) : null;
}

/** A timestamptz column as the API writes it (ISO 8601, milliseconds, Z), or null. */
export const ISO = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The values of a statement built in pieces: add() returns the placeholder of a value ($1 is the key's prefix). */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length + 1}`;
  }
}

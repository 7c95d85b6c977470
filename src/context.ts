import type pg from 'pg';
import type { Authenticator } from './auth/authenticate.js';
import type { Principal } from './auth/principal.js';
import type { PrismaClient } from './db/client.js';
import type { Sql } from './metering/ledger.js';
import { Meter, type NoHold } from './metering/meter.js';
import type { RateLimiter } from './metering/rate-limit.js';
import type { IdempotentWrite } from './db/transaction.js';
import type { WorkspaceScope } from './db/workspace-scope.js';

/** What the server shares with every request. */
export type AppServices = {
  prisma: PrismaClient;
  pool: pg.Pool;
  /** Where the credit ledger's statements run (Db.ledger). */
  ledger: Sql;
  /** What this process knows of workspaces' credits and where their charges go, so calls of a well-funded workspace skip their hold (one ledger statement instead of two, shared by concurrent calls). */
  noHold?: NoHold;
  authenticate: Authenticator;
  rateLimiter: RateLimiter;
  /** Whether priced fields are charged (the METERING setting; on unless turned off). */
  metering?: boolean;
  publicBaseUrl: string;
  startedAt: Date;
};

/** What createContext adds to the services for one request. */
type PerRequest = {
  requestId: string;
  /** The authenticated principal; resolved on first use and memoised, rejects with the auth error. */
  principal(): Promise<Principal>;
  /** Headers a resolver wants on the HTTP response (metering, rate limits); both surfaces send them. */
  responseHeaders: Map<string, string>;
  /** Charges the priced fields this request runs. */
  meter: Meter;
  /** The request's client of workspace data, once made (src/schema/shared/workspace.ts: workspaceDb). */
  workspaceScope: WorkspaceScope;
  /** How writeAudited makes each write once under the request's Idempotency-Key; without a claim, the write as it is. */
  idempotentWrite<T>(): IdempotentWrite<T>;
};

/** Per-request context, built once for GraphQL and REST alike. */
export type Context = AppServices & PerRequest;

// createContext spreads the services after the per-request properties: a service named like one of them would
// silently replace it. This fails to compile if one ever is.
const servicesKeepTheirOwnNames: [Extract<keyof AppServices, keyof PerRequest>] extends [never] ? true : never = true;
void servicesKeepTheirOwnNames;

export function createContext(
  services: AppServices,
  request: {
    requestId: string;
    authorization: string | null;
    responseHeaders: Map<string, string>;
    principal?: Promise<Principal>;
    idempotentWrite: <T>() => IdempotentWrite<T>;
  },
): Context {
  let principal = request.principal;
  const resolvePrincipal = () => (principal ??= services.authenticate(request.authorization));
  // The services are spread last: on Node 20, properties added after a spread take V8's slow path (on every
  // request), while a spread after literal properties does not.
  return {
    requestId: request.requestId,
    responseHeaders: request.responseHeaders,
    principal: resolvePrincipal,
    meter: new Meter(services.ledger, resolvePrincipal, request.requestId, request.responseHeaders, services.metering ?? true, services.noHold),
    workspaceScope: { client: null, workspaceId: null },
    idempotentWrite: request.idempotentWrite,
    ...services,
  };
}

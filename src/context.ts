import type pg from 'pg';
import type { Authenticator } from './auth/authenticate.js';
import type { Principal } from './auth/principal.js';
import type { PrismaClient } from './db/client.js';

/** What the server shares with every request. */
export type AppServices = {
  prisma: PrismaClient;
  pool: pg.Pool;
  authenticate: Authenticator;
  publicBaseUrl: string;
  startedAt: Date;
};

/** Per-request context, built once for GraphQL and REST alike. */
export type Context = AppServices & {
  requestId: string;
  /** The authenticated principal; resolved on first use and memoised, rejects with the auth error. */
  principal(): Promise<Principal>;
  /** Headers a resolver wants on the HTTP response (metering, rate limits); both surfaces send them. */
  responseHeaders: Map<string, string>;
};

export function createContext(
  services: AppServices,
  request: { requestId: string; authorization: string | null; responseHeaders: Map<string, string>; principal?: Promise<Principal> },
): Context {
  let principal = request.principal;
  return {
    ...services,
    requestId: request.requestId,
    responseHeaders: request.responseHeaders,
    principal: () => (principal ??= services.authenticate(request.authorization)),
  };
}

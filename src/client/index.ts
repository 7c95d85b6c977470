import createFetchClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, operations, paths } from './schema.js';

// The typed client of the REST surface: openapi-fetch over the types openapi-typescript generates from the committed
// OpenAPI document (src/client/schema.ts). Paths, parameters, bodies and answers are checked by the TypeScript
// compiler; a call answers `{ data }` (the envelope) or `{ error }` (the error envelope), never throws on a 4xx.
//
//   import { createClient } from 'market-intelligence-api/client';
//   const api = createClient({ baseUrl: 'http://localhost:3000', apiKey: process.env.MI_API_KEY! });
//   const { data, error } = await api.GET('/v1/ads', { params: { query: { search: 'serum', limit: 5 } } });

export type { components, operations, paths };

/** The error envelope every failure answers (`error.code` is one of the specification's codes). */
export type ApiError = components['schemas']['ErrorEnvelope'];

export type MarketIntelligenceClient = Client<paths>;

export type CreateClientOptions = Omit<ClientOptions, 'baseUrl'> & {
  /** The server's origin, e.g. `http://localhost:3000` (paths carry `/v1`). */
  baseUrl: string;
  /** A workspace API key, sent as `Authorization: Bearer <key>`. */
  apiKey?: string;
};

export function createClient({ baseUrl, apiKey, headers, ...options }: CreateClientOptions): MarketIntelligenceClient {
  return createFetchClient<paths>({
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: { ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}), ...(headers as Record<string, string> | undefined) },
    ...options,
  });
}

import { z } from 'zod';

// The settings of the source connectors, read from the environment when a run starts (so an operator changes a
// token without a restart of the API). Credentials come from here only: never from a query, never logged.

const schema = z.object({
  META_GRAPH_URL: z.string().url().default('https://graph.facebook.com'),
  META_API_VERSION: z.string().regex(/^v\d+\.\d+$/, 'must look like v21.0').default('v21.0'),
  META_ACCESS_TOKEN: z.string().optional(),
  TIKTOK_API_URL: z.string().url().default('https://open.tiktokapis.com'),
  TIKTOK_CLIENT_KEY: z.string().optional(),
  TIKTOK_CLIENT_SECRET: z.string().optional(),
  SHOPIFY_STORE_URL: z.string().refine((value) => value.includes('{domain}') && z.string().url().safeParse(value.replace('{domain}', 'example.com')).success, {
    message: 'must be a URL template with {domain}, like https://{domain}',
  }).default('https://{domain}'),
  /** The pause between two requests to one store. */
  SHOPIFY_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  /** Stores the operator lists, synced with the tracked ones. */
  SHOPIFY_DOMAINS: z.string().default(''),
  /** How many days a finished run stays in `sync_runs`; 0 keeps every run. */
  SYNC_RUNS_KEEP_DAYS: z.coerce.number({ message: 'must be a whole number of days' }).int('must be a whole number of days').min(0, 'must be 0 (keep every run) or more').max(36_500).default(90),
});

export type SourceConfig = {
  meta: { url: string; version: string; token: string | undefined };
  tiktok: { url: string; clientKey: string | undefined; clientSecret: string | undefined };
  shopify: { storeUrl: string; delayMs: number; domains: string[] };
  /** Days a finished run is kept (0: forever). */
  runsKeepDays: number;
};

export function sourceConfig(env: NodeJS.ProcessEnv = process.env): SourceConfig {
  const parsed = schema.safeParse(Object.fromEntries(Object.entries(env).filter(([key, value]) => key in schema.shape && value !== '')));
  if (!parsed.success) {
    throw new Error(`invalid source configuration: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
  }
  const e = parsed.data;
  return {
    meta: { url: e.META_GRAPH_URL.replace(/\/$/, ''), version: e.META_API_VERSION, token: e.META_ACCESS_TOKEN },
    tiktok: { url: e.TIKTOK_API_URL.replace(/\/$/, ''), clientKey: e.TIKTOK_CLIENT_KEY, clientSecret: e.TIKTOK_CLIENT_SECRET },
    shopify: {
      storeUrl: e.SHOPIFY_STORE_URL.replace(/\/$/, ''),
      delayMs: e.SHOPIFY_DELAY_MS,
      domains: e.SHOPIFY_DOMAINS.split(',').map((domain) => domain.trim().toLowerCase()).filter(Boolean),
    },
    runsKeepDays: e.SYNC_RUNS_KEEP_DAYS,
  };
}

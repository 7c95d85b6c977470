import type { GraphQLSchema } from 'graphql';
import type { FieldName } from '../metering/prices.js';
import type { RestRoute } from '../../rest/routes.js';
import { callRoute, errorResult, type ToolResult } from './call.js';
import type { JsonSchema } from './json-schema.js';
import { compactItem, readShaping, shapeEnvelope, shapingSchema, type Json } from './shape.js';
import { compactAd, compactShop, type AdRow, type ShopRow } from './tasks/compact.js';
import type { TaskContext } from './tasks/frame.js';
import { costLine, routeTools, snake, type RouteTool } from './tools.js';
import { priceOf } from '../metering/prices.js';

// The public service's tool names (search_ads, search_shops, get_email_html, …) over the route table: each is one
// route (or, by its `type` argument, one of a few), its arguments in the public tools' shape: snake_case names
// (`sort_by`, `min_days_running`, `category_ids`), a few renamed as the public tools name them (`query` is the
// route's `search`, `search_in` its `searchType`), and the route's own camelCase names accepted as well. A call is
// the route's call (src/mcp/call.ts): price, rate limit, errors and workspace are the API's own. Lists answer compact
// items by default, each a call away from its full record (`fullRecord`), within `maxTokens` (src/mcp/shape.ts).

export type PublicDefinition = {
  name: string;
  summary: string;
  /** The route called; with `by`, the argument choosing among `variants` instead. */
  field?: FieldName;
  by?: { argument: string; description: string; variants: Record<string, FieldName> };
  /** Public argument → the route's argument, where the public name is not the route's in snake_case. */
  rename?: Record<string, string>;
  /** Public values of an argument → the route's values. */
  values?: Record<string, Record<string, string>>;
  /** The route's arguments filled when the call does not give them. */
  defaults?: Json;
  /** The tool and argument that answer one list item's full record, from its id. */
  record?: { tool: string; argument: string };
  /** The compact form of one list item (shape.ts compactItem when not given). */
  compact?: (item: unknown) => unknown;
  /** Arguments the tool lists beyond the route's (the route reads them from the query string: dryRun). */
  extra?: Record<string, JsonSchema>;
};

export type PublicTool = {
  name: string; description: string; inputSchema: JsonSchema; uses: string[]; writes: boolean;
  run(context: TaskContext, args: Json): Promise<ToolResult>;
};

/** An ad row in a few fields (tasks/compact.ts) with its advertiser's id and name; any other row the generic way. */
function adItem(item: unknown): unknown {
  const ad = item as AdRow & { advertiser?: { id: string; name: string } | null };
  if (!ad?.media || !ad.content || !ad.metrics) return compactItem(item);
  return { ...compactAd(ad), ...(ad.advertiser && { advertiser: { id: ad.advertiser.id, name: ad.advertiser.name } }) };
}

function shopItem(item: unknown): unknown {
  const shop = item as ShopRow;
  return shop?.profile && shop.catalog && shop.traffic && shop.advertising ? compactShop(shop) : compactItem(item);
}

const SEARCH = { query: 'search', keywords: 'search', search_in: 'searchType', sort_order: 'order' };

export const PUBLIC_DEFINITIONS: PublicDefinition[] = [
  {
    name: 'search_ads', field: 'Query.adsQuery', compact: adItem, rename: { ...SEARCH, ad_languages: 'adLanguage', ad_language: 'adLanguage' }, record: { tool: 'scan_ad', argument: 'ad_id' },
    summary: 'Search Meta ads with the full filter set (POST /v1/ads/query): `query` (or `keywords`) in the ad copy, brand, website or domain (`search_in`), status, media type, dates, reach, rank, audience, shop and advertiser filters; `sort_by`, `page`, `limit`.',
  },
  {
    name: 'search_advertisers', field: 'Query.advertisersQuery', rename: SEARCH, record: { tool: 'advertiser', argument: 'advertiserId' },
    summary: 'Search advertisers (Facebook pages) with the full filter set (POST /v1/advertisers/query): `query` by brand, domain or ad copy (`search_in`), active ads, reach, followers, countries; `sort_by`, `offset`, `limit`.',
  },
  {
    name: 'search_shops', field: 'Query.shopsQuery', compact: shopItem, record: { tool: 'shop', argument: 'shopId' },
    rename: { query: 'search', match_mode: 'searchType', sort_order: 'order', creation_date_from: 'createdAfter', creation_date_to: 'createdBefore', min_traffic: 'minMonthlyVisits', max_traffic: 'maxMonthlyVisits', min_products: 'minProductsCount', max_products: 'maxProductsCount' },
    values: { match_mode: { exact: 'domain', domain: 'domain', contains: 'shopContains', product: 'productName' } },
    summary: 'Search shops with every filter (POST /v1/shops/query): `query` with `match_mode` exact (the domain or a related one), contains or product; traffic, ads, products, creation date, apps, themes, markets; `sort_by`, `offset`, `limit`.',
  },
  {
    name: 'find_winning_products', field: 'Query.productsQuery', rename: { sort_order: 'order', country: 'sellingCountries', countries: 'sellingCountries' },
    summary: 'Products that sell, best sellers first (POST /v1/products/query): `query`, `country` (selling countries), price, revenue, units sold, active ads, shop filters; `sort_by`, `cursor`, `limit`.',
  },
  {
    name: 'search_google_ads_library', field: 'Query.googleAdsQuery', rename: SEARCH,
    summary: 'Search the Google Ads library (POST /v1/google-ads/query): `query`, status, networks, categories, audience countries, dates, reach; `sort_by`, `page`, `limit`.',
  },
  {
    name: 'search_tiktok_library', field: 'Query.tiktokLibraryQuery', rename: SEARCH, record: { tool: 'tiktok_library_item', argument: 'itemId' },
    summary: 'Search TikTok ads and organic videos (POST /v1/tiktok/library/query): `query` in captions, profiles, hashtags or music (`search_area`), type, status, views, engagement, dates; `sort_by`, `page`, `limit`.',
  },
  {
    name: 'search_emails', field: 'Query.emailsQuery', rename: SEARCH, record: { tool: 'email', argument: 'emailId' },
    summary: "Search shops' marketing emails (POST /v1/emails/query): `query` in the email or by shop domain (`search_in`), campaign and promotion types, events, dates, shop filters; `sort_by`, `page`, `limit`. get_email_html gives one email's HTML.",
  },
  {
    name: 'get_email_html', field: 'Query.emailHtml',
    summary: "One email's raw captured HTML (GET /v1/emails/{emailId}/html), as data: cut to `maxTokens` when longer (htmlLength tells its full length).",
  },
  {
    name: 'lookup_filter_ids', by: {
      argument: 'type',
      description: 'Which ids: categories, shopify_apps, technologies, pixels, themes (the filters of search_ads and search_shops), landing_pages (of a domain or tracked pages: 1 credit per URL), google_categories, google_countries, google_networks (search_google_ads_library), product_facets (find_winning_products).',
      variants: {
        categories: 'Query.categoryFacets', shopify_apps: 'Query.shopifyAppFacets', technologies: 'Query.technologyFacets', pixels: 'Query.pixelFacets', themes: 'Query.themeFacets',
        landing_pages: 'Query.adLandingPages', google_categories: 'Query.googleAdsCategoryFacets', google_countries: 'Query.googleAdsCountryFacets', google_networks: 'Query.googleAdsNetworkFacets',
        product_facets: 'Query.productFacets',
      },
    },
    rename: { query: 'search' },
    summary: 'The ids the search tools filter by, from a name (`query`): category, Shopify app, technology, pixel and theme ids, Google categories, countries and networks, product facets; or the landing pages of a domain (`scope_domain`) or of tracked pages.',
  },
  {
    name: 'scan_ad', field: 'Query.ad', rename: { ad_id: 'adId', collation_id: 'adId' },
    summary: 'One Meta ad in full (GET /v1/ads/{adId}): its creative, copy, transcript, landing page, reach, audience, rank and advertiser. `ad_id` or `collation_id` (a search result\'s id; a member of a duplicate group answers its group lead).',
  },
  {
    name: 'get_brandtracker_scaling_ads', field: 'Query.brandtrackerScalingAds', compact: adItem, record: { tool: 'scan_ad', argument: 'ad_id' },
    summary: "A tracked brand's ads climbing its ranking (GET /v1/brandtrackers/{brandtrackerId}/scaling-ads): `brandtracker_id`, `time_window`, `sort_by`, `max_current_rank`, `min_rank_delta`, `page`, `limit`.",
  },
  {
    name: 'get_brandtracker_transcripts', field: 'Query.brandtrackerTranscripts',
    summary: "A tracked brand's video transcripts, most used first (GET /v1/brandtrackers/{brandtrackerId}/transcripts): `brandtracker_id`, `time_period`, `sort_by`, `page`, `limit`.",
  },
  {
    name: 'list_tracked_brands', field: 'Query.brandtrackers', rename: { query: 'name' }, record: { tool: 'analyze_tracked_brand', argument: 'brandtracker_id' },
    summary: "The workspace's tracked brands (GET /v1/brandtrackers): `query` (name contains), folders, `has_new_ads_since`, `sort_by`, `page`, `limit`.",
  },
  {
    name: 'add_to_brandtracker', field: 'Mutation.brandtrackerCreate',
    summary: 'Track a brand (POST /v1/brandtrackers) by exactly one of `facebook_page_id`, `website_id`, `shop_id` or `domain`, optionally in `folder_id`; an already tracked brand is returned with created false.',
  },
  { name: 'create_brandtracker_folder', field: 'Mutation.brandtrackerFolderCreate', summary: 'Create a brandtracker folder (POST /v1/brandtrackers/folders): `name`.' },
  {
    name: 'move_tracked_brands', field: 'Mutation.brandtrackerLinksMove',
    summary: 'Move tracked brands (`brandtracker_ids` or `workspace_link_ids`) to `folder_id`, or out of folders with folder_id null (PATCH /v1/brandtrackers/workspace-links).',
  },
  {
    name: 'delete_brandtracker_folder', field: 'Mutation.brandtrackerFolderDelete',
    summary: 'Delete a brandtracker folder (DELETE /v1/brandtrackers/folders/{folderId}): `folder_id`, `action` (what becomes of its brands), `confirm`.',
  },
  {
    name: 'list_favorites',
    by: { argument: 'type', description: 'ads, shops or emails.', variants: { ads: 'Query.favoriteAds', shops: 'Query.favoriteShops', emails: 'Query.favoriteEmails' } },
    defaults: { scope: 'workspace' },
    summary: "Saved ads, shops or emails (`type`) of the workspace (`scope` workspace, the default) or the key's user (personal), at the root or in `folder_id`, newest first (GET /v1/favorites/{type}).",
  },
  {
    name: 'create_favorite_folder',
    by: { argument: 'type', description: 'ads, shops or emails.', variants: { ads: 'Mutation.favoriteAdFolderCreate', shops: 'Mutation.favoriteShopFolderCreate', emails: 'Mutation.favoriteEmailFolderCreate' } },
    defaults: { scope: 'workspace' },
    summary: 'Create a favorites folder for ads, shops or emails (`type`): `name`, `parent_id` (ads and emails), `scope` (workspace by default) (POST /v1/favorites/{type}/folders).',
  },
  {
    name: 'add_favorite_item',
    by: { argument: 'type', description: 'ads, shops or emails.', variants: { ads: 'Mutation.favoriteAdAdd', shops: 'Mutation.favoriteShopAdd', emails: 'Mutation.favoriteEmailAdd' } },
    rename: { shop_id: 'websiteId' },
    defaults: { scope: 'workspace' },
    summary: 'Save an ad (`ad_id`), a shop (`website_id` or `shop_id`) or an email (`email_id`) to the favorites (`type`), at the root or in `folder_id`; `scope` workspace by default (POST /v1/favorites/{type}).',
  },
  { name: 'usage_get', field: 'Query.usage', summary: 'Billing period, included quota and credit balances of the workspace (GET /v1/usage).' },
  // The round's capabilities under the same conventions.
  {
    name: 'list_saved_searches', field: 'Query.savedSearches', record: { tool: 'run_saved_search', argument: 'saved_search_id' },
    summary: "The workspace's saved searches, newest first, each with the rows it holds (GET /v1/saved-searches). run_saved_search runs one.",
  },
  {
    name: 'create_saved_search', field: 'Mutation.savedSearchCreate',
    summary: 'Save a market list route and its arguments (POST /v1/saved-searches): `name`, `method`, `path` (e.g. POST /v1/ads/query), `params`, `notify_left`. Rows entering it later are search.matched events (whats_new).',
  },
  {
    name: 'start_export', field: 'Mutation.exportCreate',
    extra: { dryRun: { type: 'boolean', description: 'Answer the rows and the price the export would hold, without starting it (POST /v1/exports?dryRun=true).' } },
    summary: "Export a market list route's whole result as a file (POST /v1/exports): `method`, `path`, `params`, `format` (ndjson, csv, parquet). `dryRun: true` answers its price without starting it; the price is held at the start and settled on the rows written. Follow it with export_status.",
  },
  {
    name: 'export_status', field: 'Query.export',
    summary: 'One export of the workspace (GET /v1/exports/{exportId}): its state, rows written, progress, price, and once done the link its file downloads from.',
  },
  {
    name: 'sync_status', field: 'Query.systemFreshness',
    summary: "For operators: how fresh the market is (GET /v1/system/freshness): the latest ready and scheduled days, the lag in days, and per collected source its last run's status, whether one is running and its last success.",
  },
];

const camel = (name: string) => name.replace(/_([a-z0-9])/g, (_all, letter: string) => letter.toUpperCase());

/** Public name of a route argument not renamed: its snake_case form (dryRun stays dryRun). */
const publicName = (routeArg: string) => (routeArg === 'dryRun' ? 'dryRun' : snake(routeArg));

function describeRoute(route: RestRoute): string {
  return `${route.method} /v1${route.path.replace(/:([A-Za-z]+)/g, '{$1}')}`;
}

/** The input schema of a definition: its routes' arguments under their public names, merged. */
function inputSchemaOf(definition: PublicDefinition, tools: RouteTool[]): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required = new Set<string>();
  if (definition.by) properties[definition.by.argument] = { type: 'string', enum: Object.keys(definition.by.variants), description: definition.by.description };
  const renamedTo = new Map<string, string[]>();
  for (const [from, to] of Object.entries(definition.rename ?? {})) renamedTo.set(to, [...(renamedTo.get(to) ?? []), from]);
  for (const tool of tools) {
    for (const [routeArg, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
      if (['maxTokens', 'fields', 'detail'].includes(routeArg)) continue;
      const names = renamedTo.get(routeArg) ?? [publicName(routeArg)];
      for (const name of names) {
        const aliased = names.length > 1 && name !== names[0] ? { ...schema, description: `Same as \`${names[0]}\`.` } : schema;
        const valued = definition.values?.[name] ? { ...aliased, enum: Object.keys(definition.values[name]) } : aliased;
        properties[name] = properties[name] ?? valued;
      }
      const isRequired = tool.inputSchema.required?.includes(routeArg) && !(definition.defaults && routeArg in definition.defaults);
      if (isRequired && tools.length === 1) required.add(names[0]);
    }
  }
  if (definition.by) required.add(definition.by.argument);
  Object.assign(properties, definition.extra ?? {});
  const list = tools.some((tool) => tool.route.field.startsWith('Query.'));
  Object.assign(properties, shapingSchema(list ? 'compact' : null));
  return required.size ? { type: 'object', properties, required: [...required] } : { type: 'object', properties };
}

/** The route's arguments of a call: public names mapped, values translated, arrays where the route takes a list. */
export function routeArguments(definition: PublicDefinition, tool: RouteTool, args: Json): Json {
  const out: Json = { ...(definition.defaults ?? {}) };
  for (const [name, raw] of Object.entries(args)) {
    if (definition.by && name === definition.by.argument) continue;
    const routeArg = name === 'dryRun' || name === 'dry_run' ? 'dryRun' : definition.rename?.[name] ?? (tool.arguments.has(name) ? name : camel(name));
    if (routeArg !== 'dryRun' && !tool.arguments.has(routeArg)) continue; // ignored, as the routes ignore what they do not read
    let value = raw;
    const mapped = definition.values?.[name];
    if (mapped && typeof value === 'string' && value in mapped) value = mapped[value];
    if (tool.inputSchema.properties?.[routeArg]?.type === 'array' && value !== null && value !== undefined && !Array.isArray(value)) value = [value];
    out[routeArg] = value;
  }
  return out;
}

/** The public tools of this route table: reads always, writes only when `mutations` is set. */
export function publicTools(schema: GraphQLSchema, routes: readonly RestRoute[], options: { mutations: boolean }): PublicTool[] {
  const byField = new Map(routeTools(schema, routes, { mutations: true }).map((tool) => [tool.route.field, tool]));
  return PUBLIC_DEFINITIONS.flatMap((definition): PublicTool[] => {
    const fields = definition.by ? Object.values(definition.by.variants) : [definition.field!];
    const tools = fields.map((field) => byField.get(field));
    if (tools.some((tool) => !tool)) return []; // a route this table does not have
    const routeToolsOf = tools as RouteTool[];
    const writes = routeToolsOf.some((tool) => tool.route.field.startsWith('Mutation.'));
    if (writes && !options.mutations) return [];
    const costs = definition.by
      ? Object.entries(definition.by.variants).map(([value, field]) => `${value}: ${describeRoute(byField.get(field)!.route)}, ${costLine(priceOf(field)).replace(/\.$/, '').toLowerCase()}`).join('; ') + '.'
      : `${describeRoute(routeToolsOf[0].route)}. ${costLine(priceOf(fields[0]))}`;
    const description = `${definition.summary} Arguments are the route's in snake_case (its camelCase names work too). ${costs} Priced as that route.`;
    return [{
      name: definition.name, description, inputSchema: inputSchemaOf(definition, routeToolsOf), uses: fields, writes,
      run: (context, args) => runPublic(definition, routeToolsOf, context, args),
    }];
  });
}

async function runPublic(definition: PublicDefinition, tools: RouteTool[], context: TaskContext, args: Json): Promise<ToolResult> {
  const read = readShaping(args, 'compact');
  if ('violations' in read) {
    return errorResult('validation_error', `Invalid request: ${read.violations.flatMap((v) => v.expected).join('; ')}`, context.requestId, { validationErrors: read.violations });
  }
  let tool = tools[0];
  if (definition.by) {
    const variant = String(read.rest[definition.by.argument] ?? '');
    const chosen = Object.hasOwn(definition.by.variants, variant) ? definition.by.variants[variant] : undefined;
    if (!chosen) {
      const expected = `${definition.by.argument} must be one of: ${Object.keys(definition.by.variants).join(', ')}`;
      return errorResult('validation_error', `Invalid request: ${expected}`, context.requestId, { validationErrors: [{ field: definition.by.argument, location: 'argument', expected: [expected] }] });
    }
    tool = tools.find((candidate) => candidate.route.field === chosen)!;
  }
  const routeArgs = routeArguments(definition, tool, read.rest);
  const shapeText = (text: string) => shapeEnvelope(JSON.parse(text), read.shaping, { tool: definition.name, args, record: definition.record, compact: definition.compact });
  return callRoute(context.fetch, tool.route, routeArgs, context.authorization, context.origin, tool.arguments, shapeText);
}

import { builder } from '../builder.js';
import { SavedSearchMethodEnum, savedSearchId, savedSearchName, savedSearchParams, savedSearchPath } from './args.js';
import { savedSearchBounds, savedSearchCreate, savedSearchDelete, savedSearchUpdate } from './service.js';
import { SavedSearchDeleteResultRef, SavedSearchRef } from './types.js';

const PARAMS =
  "The route's arguments as one JSON object: a GET list's query-string parameters (`{ \"search\": \"summer\", \"status\": \"active\" }`), a POST list's " +
  'body. Read and checked as the route reads them: a bad value is the route\'s own validation_error, named `params.<parameter>`; a parameter the ' +
  'route does not have, and the paging ones (page, limit, offset, cursor), are refused.';

builder.mutationFields((t) => ({
  savedSearchCreate: t.field({
    type: SavedSearchRef,
    authScopes: { writer: true },
    description:
      'Saves a market list route and its arguments (POST /v1/saved-searches). method and path name a market list without a path parameter: ' +
      'GET /v1/ads, POST /v1/ads/query, GET /v1/advertisers, POST /v1/advertisers/query, GET /v1/shops, POST /v1/shops/query, GET /v1/products, ' +
      'POST /v1/products/query, POST /v1/emails/query, GET /v1/tiktok/library, POST /v1/tiktok/library/query, POST /v1/google-ads/query. The rows ' +
      `it matches now are its baseline (no event); more than SAVED_SEARCH_MAX_MATCHES (${savedSearchBounds.maxMatches.toLocaleString('en')} by ` +
      'default) is a validation_error: narrow it. After each write of market data, a row that newly enters it is a `search.matched` event of the ' +
      'workspace, and with notifyLeft one that leaves it a `search.left`.',
    args: {
      name: t.arg.string({ required: true, description: '1 to 200 characters.', validate: savedSearchName }),
      method: t.arg({ type: SavedSearchMethodEnum, required: true }),
      path: t.arg.string({ required: true, description: 'The list route as called, `/v1/ads`.', validate: savedSearchPath }),
      params: t.arg({ type: 'JSON', required: true, description: PARAMS, validate: savedSearchParams }),
      notifyLeft: t.arg.boolean({ description: 'Announce rows that leave the search too (`search.left`); default false.' }),
    },
    resolve: (_root, args, context) =>
      savedSearchCreate(context, { name: args.name, method: args.method, path: args.path, params: args.params as Record<string, unknown>, notifyLeft: args.notifyLeft }),
  }),
  savedSearchUpdate: t.field({
    type: SavedSearchRef,
    authScopes: { writer: true },
    description:
      'Changes a saved search (PATCH /v1/saved-searches/{savedSearchId}): its name, notifyLeft, or its params, which re-take its baseline (the ' +
      'rows the new params match now, announced by no event). Its route stays: save another search for another route.',
    args: {
      savedSearchId: t.arg.string({ required: true, validate: savedSearchId }),
      name: t.arg.string({ validate: savedSearchName }),
      params: t.arg({ type: 'JSON', description: PARAMS, validate: savedSearchParams }),
      notifyLeft: t.arg.boolean(),
    },
    resolve: (_root, args, context) =>
      savedSearchUpdate(context, args.savedSearchId, { name: args.name, params: args.params as Record<string, unknown> | null | undefined, notifyLeft: args.notifyLeft }),
  }),
  savedSearchDelete: t.field({
    type: SavedSearchDeleteResultRef,
    authScopes: { writer: true },
    description: 'Deletes a saved search and the rows it held (DELETE /v1/saved-searches/{savedSearchId}). Its events stay in the feed.',
    args: { savedSearchId: t.arg.string({ required: true, validate: savedSearchId }) },
    resolve: (_root, args, context) => savedSearchDelete(context, args.savedSearchId),
  }),
}));

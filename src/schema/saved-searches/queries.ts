import { builder } from '../builder.js';
import { listRef, pageArgs, pageRequest } from '../shared/list.js';
import { LIST_LIMITS, savedSearchId } from './args.js';
import { savedSearchDetail, savedSearchPage } from './service.js';
import { SavedSearchRef } from './types.js';

const SavedSearchPage = listRef('SavedSearchPage', SavedSearchRef, { style: 'page', description: "A page of the workspace's saved searches, newest first." });

builder.queryFields((t) => ({
  savedSearches: t.field({
    type: SavedSearchPage,
    authScopes: { workspace: true },
    description: "The workspace's saved searches, newest first, each with the number of rows it holds (GET /v1/saved-searches).",
    args: { ...pageArgs(LIST_LIMITS) },
    resolve: (_root, args, context) => savedSearchPage(context, pageRequest(args, LIST_LIMITS.defaultLimit)),
  }),
  savedSearch: t.field({
    type: SavedSearchRef,
    authScopes: { workspace: true },
    description: 'One saved search of the workspace with the number of rows it holds now (GET /v1/saved-searches/{savedSearchId}).',
    args: { savedSearchId: t.arg.string({ required: true, validate: savedSearchId }) },
    resolve: (_root, args, context) => savedSearchDetail(context, args.savedSearchId),
  }),
}));

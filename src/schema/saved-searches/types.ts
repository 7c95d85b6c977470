import { builder } from '../builder.js';
import { SavedSearchMethodEnum } from './args.js';
import type { SavedSearchView } from './service.js';

export const SavedSearchRef = builder.objectRef<SavedSearchView>('SavedSearch').implement({
  description:
    'A market list route and its arguments, kept for the workspace: after each write of market data the rows that newly enter it are announced ' +
    '(`search.matched`), and with notifyLeft the rows that leave it (`search.left`), on the feed, the webhooks and the live subscriptions.',
  fields: (t) => ({
    id: t.id({ description: 'uuid', resolve: (search) => search.id }),
    name: t.exposeString('name'),
    method: t.field({ type: SavedSearchMethodEnum, resolve: (search) => search.method as 'GET' | 'POST' }),
    path: t.exposeString('path', { description: 'The list route as an integrator calls it, `/v1/ads`.' }),
    params: t.field({ type: 'JSON', description: "The route's arguments, as sent (its query-string parameters, or its JSON body).", resolve: (search) => search.params }),
    notifyLeft: t.exposeBoolean('notifyLeft', { description: 'Whether a row that leaves the search is announced (`search.left`).' }),
    matches: t.exposeInt('matches', { description: 'The rows the search holds now: those it matched when made (or when its params changed), and those that entered since, less those that left.' }),
    createdAt: t.field({ type: 'DateTime', resolve: (search) => search.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (search) => search.updatedAt }),
  }),
});

export const SavedSearchDeleteResultRef = builder.objectRef<{ id: string; deleted: boolean }>('SavedSearchDeleteResult').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    deleted: t.exposeBoolean('deleted'),
  }),
});

import { builder } from '../builder.js';
import { afterArg, crossChecks, eventFilterArgs, feedArgs } from './args.js';
import { readPosition } from './cursor.js';
import { eventPage } from './service.js';
import { EventPageRef } from './types.js';

builder.queryFields((t) => ({
  events: t.field({
    type: EventPageRef,
    authScopes: { workspace: true },
    description:
      "The workspace's feed (GET /v1/events): the market's changes that concern its active brandtrackers' pages and shops and what its workspace boards saved, and its own events, newest first (order=asc reads forward). Resume exactly after an event with `after` (a cursor or an event id). The same events live: GET /v1/events/stream (Server-Sent Events) and `subscription { events }`. Costs one credit per returned event; an empty page is free.",
    args: { ...eventFilterArgs(), ...afterArg('Only the events after this one in the order asked for.'), ...feedArgs() },
    validate: crossChecks,
    resolve: (_root, args, context) => {
      const given = args.after ?? args.cursor ?? null;
      return eventPage(context, args, {
        order: args.order ?? 'desc',
        limit: args.limit ?? 25,
        position: given === null ? null : readPosition(given),
        positionArg: args.after ? 'after' : 'cursor',
      });
    },
  }),
}));

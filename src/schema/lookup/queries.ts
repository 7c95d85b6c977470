import { z } from 'zod';
import { builder } from '../builder.js';
import { lookup } from './service.js';
import { LookupPage, LookupTypeFilter } from './types.js';

builder.queryFields((t) => ({
  lookup: t.field({
    type: LookupPage,
    nullable: true,
    authScopes: { workspace: true },
    description:
      'Resolve a brand name, shop domain or URL, Facebook page id or Instagram handle to the brandtrackers of this workspace, advertisers and shops (GET /v1/lookup). ' +
      'Exact matches come before fuzzy name matches.',
    args: {
      q: t.arg.string({ required: true, validate: z.string().trim().min(2).max(200) }),
      type: t.arg({ type: LookupTypeFilter, defaultValue: 'auto' }),
      limit: t.arg.int({ defaultValue: 10, description: 'Results, 1..10 (default 10).', validate: z.number().int().min(1).max(10) }),
    },
    resolve: (_root, args, context) => lookup(context, args.q, args.type ?? 'auto', args.limit ?? 10),
  }),
}));

import { queryFromInfo } from '@pothos/plugin-prisma';
import { z } from 'zod';
import type { BrandtrackerLink } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { brandtrackerId, facebookPageId, folderId } from '../shared/ids.js';
import { displayName } from './args.js';
import { brandtrackerCreate, brandtrackerDelete, brandtrackerUpdate } from './service.js';
import { BrandtrackerChange } from './types.js';

// Tracking a brand: create (or reactivate), rename and delete a workspace link (service/tracking.ts).

const CreateResult = builder.objectRef<{ data: BrandtrackerLink; created: boolean }>('BrandtrackerCreateResult').implement({
  fields: (t) => ({
    data: t.field({ type: BrandtrackerChange, resolve: (result) => result.data }),
    created: t.exposeBoolean('created', { description: 'True when this call created or reactivated the link; false when it was already active.' }),
  }),
});

const DeleteResult = builder.objectRef<{ id: string; deleted: boolean }>('BrandtrackerDeleteResult').implement({
  fields: (t) => ({ id: t.exposeID('id'), deleted: t.exposeBoolean('deleted') }),
});

builder.mutationFields((t) => ({
  brandtrackerCreate: t.field({
    type: CreateResult,
    authScopes: { writer: true },
    description:
      'Tracks a brand in the workspace (POST /v1/brandtrackers) by exactly one of facebookPageId, websiteId, shopId (alias of websiteId) or domain. ' +
      'Creates or reactivates the workspace link (one create/delete quota operation and one active slot); an already active link is returned unchanged with `created: false`.',
    args: {
      facebookPageId: t.arg.string({ validate: facebookPageId }),
      websiteId: t.arg.string({ validate: z.guid({ message: '{name} must be a UUID' }) }),
      shopId: t.arg.string({ description: 'Alias of websiteId.', validate: z.guid({ message: '{name} must be a UUID' }) }),
      domain: t.arg.string({ description: 'A shop domain or URL; protocol, path and a leading www. are ignored.', validate: z.string().trim().min(1).max(253) }),
      folderId: t.arg.int({ description: 'A folder of the workspace; omitted or null puts the brandtracker at the root.', validate: folderId }),
    },
    resolve: (_root, args, context, info) => brandtrackerCreate(context, args, queryFromInfo({ context, info, path: ['data'] })),
  }),
  brandtrackerUpdate: t.prismaField({
    type: BrandtrackerChange,
    authScopes: { writer: true },
    description: "Sets the workspace's display name of an active brandtracker (PATCH /v1/brandtrackers/{brandtrackerId}); the brand's own name is unchanged.",
    args: {
      brandtrackerId: t.arg.string({ required: true, validate: brandtrackerId }),
      name: t.arg.string({ required: true, validate: displayName }),
    },
    resolve: (query, _root, args, context) => brandtrackerUpdate(context, args, query),
  }),
  brandtrackerDelete: t.field({
    type: DeleteResult,
    authScopes: { writer: true },
    description: 'Stops tracking a brand (DELETE /v1/brandtrackers/{brandtrackerId}): the link turns inactive and keeps its name and folder for a later reactivation.',
    args: { brandtrackerId: t.arg.string({ required: true, validate: brandtrackerId }) },
    resolve: (_root, args, context) => brandtrackerDelete(context, args),
  }),
}));

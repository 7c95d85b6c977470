import { z } from 'zod';
import { builder } from '../builder.js';
import { brandtrackerId, folderId } from '../shared/ids.js';
import { workspaceLinksDelete, workspaceLinksMove, type LinksResult } from './service.js';

// Bulk writes on workspace links, addressed by exactly one set of ids: public brandtracker ids or link ids. Ids that
// are unknown, inactive or of another workspace are reported as not found and left untouched.

const LinksResultRef = builder.objectRef<LinksResult>('BrandtrackerLinksResult').implement({
  fields: (t) => ({
    requestedCount: t.exposeInt('requestedCount', { description: 'Distinct ids requested.' }),
    affectedCount: t.exposeInt('affectedCount', { description: 'Active links of the workspace that were changed.' }),
    notFoundBrandtrackerIds: t.exposeStringList('notFoundBrandtrackerIds'),
    notFoundWorkspaceLinkIds: t.exposeIntList('notFoundWorkspaceLinkIds'),
  }),
});

const MAX_IDS = 100;

const addressArgs = builder.args((t) => ({
  brandtrackerIds: t.stringList({ description: `Public brandtracker ids (at most ${MAX_IDS}).`, validate: z.array(brandtrackerId).max(MAX_IDS) }),
  workspaceLinkIds: t.intList({ description: `Workspace link ids (at most ${MAX_IDS}).`, validate: z.array(folderId).max(MAX_IDS) }),
}));

const nonEmpty = (value: unknown) => Array.isArray(value) && value.length > 0;
const exactlyOneSet = (args: Record<string, unknown>) => Number(nonEmpty(args.brandtrackerIds)) + Number(nonEmpty(args.workspaceLinkIds)) === 1;
const oneSetIssue = { path: ['brandtrackerIds'], message: 'exactly one of {name} or workspaceLinkIds must be a non-empty list' };

builder.mutationFields((t) => ({
  brandtrackerLinksMove: t.field({
    type: LinksResultRef,
    authScopes: { writer: true },
    description: 'Moves active brandtrackers into one folder, or to the root when folderId is null or omitted (PATCH /v1/brandtrackers/workspace-links). No quota use.',
    args: { ...addressArgs, folderId: t.arg.int({ description: 'The destination folder; null or omitted moves to the root.', validate: folderId }) },
    validate: z.looseObject({}).refine(exactlyOneSet, oneSetIssue),
    resolve: (_root, args, context) => workspaceLinksMove(context, args),
  }),
  brandtrackerLinksDelete: t.field({
    type: LinksResultRef,
    authScopes: { writer: true },
    description:
      'Deactivates active brandtrackers (DELETE /v1/brandtrackers/workspace-links); `confirm` must be true. The request takes one create/delete quota ' +
      'operation however many links it deactivates; nothing changes when the quota is used up.',
    args: { ...addressArgs, confirm: t.arg.boolean({ description: 'Must be true.' }) },
    validate: z
      .looseObject({ confirm: z.boolean().nullish() })
      .refine(exactlyOneSet, oneSetIssue)
      .refine((args) => args.confirm === true, { path: ['confirm'], message: '{name} must be true' }),
    resolve: (_root, args, context) => workspaceLinksDelete(context, args),
  }),
}));

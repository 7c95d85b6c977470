import { z } from 'zod';
import { notFound } from '../../errors.js';
import type { BrandtrackerLink, PrismaClient } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { writeAudited, type Lock } from '../shared/audit.js';
import { brandtrackerId, folderId } from './args.js';
import { lockWorkspaceQuota, takeOperation } from './quota.js';

// Bulk writes on workspace links, addressed by exactly one set of ids: public brandtracker ids or link ids. Ids that
// are unknown, inactive or of another workspace are reported as not found and left untouched.

type Result = { requestedCount: number; affectedCount: number; notFoundBrandtrackerIds: string[]; notFoundWorkspaceLinkIds: number[] };

const LinksResult = builder.objectRef<Result>('BrandtrackerLinksResult').implement({
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

type Address = { brandtrackerIds?: string[] | null; workspaceLinkIds?: number[] | null };

/** The workspace's active links the address names, locked for this write, and the ids it names that are not among them. */
async function resolveAddress(tx: PrismaClient, lock: Lock, workspaceId: string, address: Address) {
  const brandtrackerIds = [...new Set((address.brandtrackerIds ?? []).map((id) => id.toLowerCase()))];
  const linkIds = [...new Set(address.workspaceLinkIds ?? [])];
  const listed = await tx.brandtrackerLink.findMany({
    where: { workspaceId, isActive: true, ...(brandtrackerIds.length ? { brandtrackerId: { in: brandtrackerIds } } : { id: { in: linkIds } }) },
    orderBy: { id: 'asc' },
    select: { id: true },
  });
  const links = (await lock.all('brandtrackerLink', listed.map((link) => link.id))).filter((link) => link.isActive);
  const foundBrandtrackers = new Set(links.map((link) => link.brandtrackerId));
  const foundLinks = new Set(links.map((link) => link.id));
  return {
    links,
    requestedCount: brandtrackerIds.length + linkIds.length,
    notFoundBrandtrackerIds: brandtrackerIds.filter((id) => !foundBrandtrackers.has(id)),
    notFoundWorkspaceLinkIds: linkIds.filter((id) => !foundLinks.has(id)),
  };
}

const state = (link: BrandtrackerLink) => ({ folderId: link.folderId, isActive: link.isActive });

builder.mutationFields((t) => ({
  brandtrackerLinksMove: t.field({
    type: LinksResult,
    authScopes: { writer: true },
    description: 'Moves active brandtrackers into one folder, or to the root when folderId is null or omitted (PATCH /v1/brandtrackers/workspace-links). No quota use.',
    args: { ...addressArgs, folderId: t.arg.int({ description: 'The destination folder; null or omitted moves to the root.', validate: folderId }) },
    validate: z.looseObject({}).refine(exactlyOneSet, oneSetIssue),
    resolve: async (_root, args, context) => {
      const { workspace } = await context.principal();
      return writeAudited(context, async (tx, audit, lock) => {
        if (args.folderId != null && !(await tx.brandtrackerFolder.findFirst({ where: { id: args.folderId, workspaceId: workspace.id }, select: { id: true } }))) {
          throw notFound(`Folder ${args.folderId}`);
        }
        const { links, ...report } = await resolveAddress(tx, lock, workspace.id, args);
        const destination = args.folderId ?? null;
        await tx.brandtrackerLink.updateMany({ where: { id: { in: links.map((link) => link.id) } }, data: { folderId: destination } });
        for (const link of links.filter((found) => found.folderId !== destination)) {
          await audit({ action: 'brandtracker.move', entityType: 'brandtracker_link', entityId: link.id, before: state(link), after: { ...state(link), folderId: destination } });
        }
        return { ...report, affectedCount: links.length };
      });
    },
  }),
  brandtrackerLinksDelete: t.field({
    type: LinksResult,
    authScopes: { writer: true },
    description:
      'Deactivates active brandtrackers (DELETE /v1/brandtrackers/workspace-links); `confirm` must be true. The request takes one create/delete quota ' +
      'operation however many links it deactivates; nothing changes when the quota is used up.',
    args: { ...addressArgs, confirm: t.arg.boolean({ description: 'Must be true.' }) },
    validate: z
      .looseObject({ confirm: z.boolean().nullish() })
      .refine(exactlyOneSet, oneSetIssue)
      .refine((args) => args.confirm === true, { path: ['confirm'], message: '{name} must be true' }),
    resolve: async (_root, args, context) => {
      const { workspace } = await context.principal();
      return writeAudited(context, async (tx, audit, lock) => {
        await lockWorkspaceQuota(tx, workspace.id);
        const { links, ...report } = await resolveAddress(tx, lock, workspace.id, args);
        await takeOperation(tx, workspace.id, { action: 'bulk-delete', slots: 0, affectedCount: links.length, requestId: context.requestId });
        await tx.brandtrackerLink.updateMany({ where: { id: { in: links.map((link) => link.id) } }, data: { isActive: false, removedAt: new Date() } });
        for (const link of links) {
          await audit({ action: 'brandtracker.delete', entityType: 'brandtracker_link', entityId: link.id, before: state(link), after: { ...state(link), isActive: false } });
        }
        return { ...report, affectedCount: links.length };
      });
    },
  }),
}));

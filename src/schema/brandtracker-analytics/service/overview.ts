import { queryFromInfo } from '@pothos/plugin-prisma';
import type { GraphQLResolveInfo } from 'graphql';
import type { Context } from '../../../context.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { adsByIds, withCpm } from '../../ads/service.js';
import { findPage, type RowPage } from '../../shared/list.js';
import { adsOf, type Frame } from './frame.js';

// The overview's preview of the latest ads (GET /v1/brandtrackers/{brandtrackerId}/overview): its page, its count
// and its ads, three statements; the other sections are the routes' own statements.

/** The frame's latest ads, one per duplicate group (first seen by the snapshot day's end), newest first. */
export async function adsPreviewOf(context: Context, info: GraphQLResolveInfo, frame: Frame, limit: number): Promise<RowPage> {
  const where = [adsOf(frame), Prisma.sql`a."isGroupLead"`];
  if (frame.snapshot.requested !== null) where.push(Prisma.sql`a."firstSeenAt" < ${frame.until}`);
  const select = queryFromInfo({ context, info, path: ['data', 'adsPreview', 'data'] });
  return findPage(context.prisma, {
    id: Prisma.sql`a."id"`, from: Prisma.sql`FROM "ads" a WHERE ${Prisma.join(where, ' AND ')}`,
    order: [{ key: Prisma.sql`a."firstSeenAt"`, direction: 'DESC' }, { key: Prisma.sql`a."id"`, direction: 'ASC' }],
    page: { page: 1, limit },
    rows: { load: async (ids) => withCpm(await adsByIds(context.prisma, ids, select), frame.cpm) },
  });
}

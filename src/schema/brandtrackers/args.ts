import { z } from 'zod';
import { builder } from '../builder.js';
import { folderId } from '../shared/ids.js';
import { pageArgs } from '../shared/list.js';

// Arguments of the brandtracker lists and writes, with their validation, and their translation into the list filter.

export const BrandtrackerListSort = builder.enumType('BrandtrackerListSort', {
  description: 'Figures and createdAt sort descending, name ascending; omitted keeps the workspace order (last added first).',
  values: ['newAdsLastDay', 'newAdsLast7Days', 'newAdsLast30Days', 'activeAds', 'totalTraffic', 'name', 'createdAt'] as const,
});

export type BrandtrackerListSortValue = (typeof BrandtrackerListSort.$inferType);

export const LIST_LIMITS = { defaultLimit: 25, maxLimit: 100 };

const folderName = z.string().trim().min(1).max(100);

/** The filters of GET /v1/brandtrackers (and of a folder's listing, without the folder ones). */
export function listArgs(options: { folders: boolean }) {
  return builder.args((t) => ({
    ...pageArgs(LIST_LIMITS),
    hasNewAdsSince: t.field({
      type: 'DateTime',
      description: 'Only brandtrackers with at least one ad first seen at or after this date-time.',
    }),
    name: t.string({ description: 'Case-insensitive substring of the display name.', validate: z.string().max(200) }),
    sortBy: t.field({ type: BrandtrackerListSort }),
    ...(options.folders
      ? {
          folderIds: t.intList({ description: 'Folder ids (repeated or comma-separated).', validate: z.array(folderId).max(100) }),
          folderNames: t.stringList({
            description: 'Case-insensitive substrings of folder names (repeated or comma-separated).',
            validate: z.array(z.string().max(100)).max(20),
          }),
        }
      : {}),
  }));
}

export type ListFilter = {
  hasNewAdsSince?: Date;
  name?: string;
  folderIds?: number[];
  folderNames?: string[];
};

type ListArgValues = {
  hasNewAdsSince?: Date | null;
  name?: string | null;
  folderIds?: number[] | null;
  folderNames?: string[] | null;
};

/** The list filter of the arguments: empty strings and lists filter nothing. */
export function listFilter(args: ListArgValues): ListFilter {
  const name = args.name?.trim();
  const names = args.folderNames?.map((value) => value.trim()).filter(Boolean);
  return {
    hasNewAdsSince: args.hasNewAdsSince ?? undefined,
    name: name ? name : undefined,
    folderIds: args.folderIds?.length ? args.folderIds : undefined,
    folderNames: names?.length ? names : undefined,
  };
}

export const displayName = z.string().trim().min(1).max(200);
export { folderName };

import { z } from 'zod';
import { builder } from '../builder.js';
import { CANDIDATES } from './service.js';

// The image a search starts from: uploaded (multipart on REST, base64 on GraphQL) or fetched from `imageUrl`;
// or a kept search to continue (`searchId`). Exactly one of the three.

export const imageSearchArgs = () =>
  builder.args((t) => ({
    image: t.string({
      description: 'The image, base64-encoded (a data: URL is accepted), JPEG or PNG. On REST, send it as the multipart file field `image` (or `file`) instead. The request body is at most 1 MiB.',
      validate: z.string().min(1),
    }),
    imageUrl: t.string({
      description: 'An http(s) URL of the image, fetched by the server (public addresses only, 5 s, 5 MB).',
      validate: z.string().max(2048),
    }),
    searchId: t.string({ description: "A previous answer's meta.searchId: its results from `offset` (searches are kept 60 minutes).", validate: z.uuid({ message: '{name} must be a UUID' }) }),
    offset: t.int({ defaultValue: 0, description: 'Results to skip, from 0.', validate: z.number().int().min(0).max(CANDIDATES) }),
    limit: t.int({ defaultValue: 20, description: 'Results to return, 1..50 (default 20).', validate: z.number().int().min(1).max(50) }),
  }));

/** Exactly one of image, imageUrl, searchId. */
export const oneSource = z.looseObject({}).superRefine((raw, ctx) => {
  const args = raw as { image?: string | null; imageUrl?: string | null; searchId?: string | null };
  const given = (['image', 'imageUrl', 'searchId'] as const).filter((name) => args[name] != null);
  if (given.length === 0) ctx.addIssue({ code: 'custom', path: ['image'], message: '{name} should not be empty: send an image, an imageUrl or a searchId' });
  if (given.length > 1) ctx.addIssue({ code: 'custom', path: [given[1]], message: `{name} must not be sent together with ${given[0]}` });
});

import type { Context } from '../../context.js';
import { Prisma } from '../../generated/prisma/client.js';
import { facetPage, type FacetPage, type FacetQuery } from '../shared/facets.js';

// The facets domain's public face and the home of its SQL: the statement of each GET /v1/facets/* list, run by the
// facet engine (shared/facets.ts). The values are the market's reference tables, each with its stored usageCount.

const sql = Prisma.sql;

const FACETS = {
  categories: {
    select: sql`c."id", c."name", c."path", c."parentId", c."usageCount"`,
    from: sql`FROM "categories" c`,
    labels: [sql`c."name"`, sql`c."path"`],
    order: [{ key: sql`c."usageCount"`, direction: 'DESC' }, { key: sql`c."id"`, direction: 'ASC' }],
  },
  'shopify-apps': {
    select: sql`p."id", p."label", p."iconUrl", p."shopifyUrl", p."usageCount"`,
    from: sql`FROM "shopify_apps" p`,
    labels: [sql`p."label"`, sql`p."slug"`],
    order: [{ key: sql`p."usageCount"`, direction: 'DESC' }, { key: sql`p."id"`, direction: 'ASC' }],
  },
  technologies: {
    select: sql`te."slug", te."id"::text AS id, te."name", te."iconUrl", te."categories", te."usageCount"`,
    from: sql`FROM "technologies" te`,
    labels: [sql`te."name"`, sql`te."slug"`],
    order: [{ key: sql`te."usageCount"`, direction: 'DESC' }, { key: sql`te."slug"`, direction: 'ASC' }],
  },
  pixels: {
    select: sql`x."id"::text AS id, x."slug", x."name", x."iconUrl", x."categories", x."usageCount"`,
    from: sql`FROM "pixels" x`,
    labels: [sql`x."name"`, sql`x."slug"`],
    order: [{ key: sql`x."usageCount"`, direction: 'DESC' }, { key: sql`x."slug"`, direction: 'ASC' }],
  },
  themes: {
    select: sql`h."id"::text AS id, h."name", h."usageCount"`,
    from: sql`FROM "themes" h`,
    labels: [sql`h."name"`],
    order: [{ key: sql`h."usageCount"`, direction: 'DESC' }, { key: sql`h."name"`, direction: 'ASC' }],
  },
} satisfies Record<string, FacetQuery>;

/** The path of a facet list under GET /v1/facets/. */
export type FacetPath = keyof typeof FACETS;

/** One page of the facet list at `path`, searched by its labels. */
export function facetValues<T>(context: Context, path: FacetPath, args: { search?: string | null; limit?: number | null; offset?: number | null }): Promise<FacetPage<T>> {
  return facetPage<T>(context.prisma, FACETS[path], args);
}

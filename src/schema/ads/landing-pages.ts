import { z } from 'zod';
import { builder } from '../builder.js';
import { hostOf } from '../shared/codes.js';
import { adLandingPages, type LandingPage } from './service/landing-pages.js';
import { AdStatusFilter } from './types.js';
const ScopeType = builder.enumType('LandingPageScope', { values: ['trackedPages', 'domain'] as const });

type Meta = { scopeType: typeof ScopeType.$inferType; scopeValueCount: number; status: typeof AdStatusFilter.$inferType; limit: number; isTruncated: boolean };

const LandingPageRef = builder.objectRef<LandingPage>('AdLandingPage').implement({
  fields: (t) => ({
    url: t.exposeString('url', { description: 'Lowercase, without query string or trailing slashes.' }),
    usageCount: t.exposeInt('usageCount', { description: 'Matching ads using this landing page.' }),
    activeAdsCount: t.exposeInt('activeAdsCount'),
  }),
});

const MetaRef = builder.objectRef<Meta>('AdLandingPagesMeta').implement({
  fields: (t) => ({
    scopeType: t.expose('scopeType', { type: ScopeType }),
    scopeValueCount: t.exposeInt('scopeValueCount'),
    status: t.expose('status', { type: AdStatusFilter }),
    limit: t.exposeInt('limit'),
    isTruncated: t.exposeBoolean('isTruncated', { description: 'More landing pages matched than the limit.' }),
  }),
});

const LandingPagesRef = builder.objectRef<{ data: LandingPage[]; meta: Meta }>('AdLandingPages').implement({
  fields: (t) => ({
    data: t.field({ type: [LandingPageRef], resolve: (result) => result.data }),
    meta: t.field({ type: MetaRef, resolve: (result) => result.meta }),
  }),
});

builder.queryFields((t) => ({
  adLandingPages: t.field({
    type: LandingPagesRef,
    nullable: true,
    authScopes: { workspace: true },
    description: 'Distinct landing pages of the ads of some Facebook pages or of one shop domain. One credit per URL returned; never returns ads.',
    args: {
      scopeTrackedPages: t.arg.stringList({ description: 'Facebook page ids. Exclusive with scopeDomain.', validate: z.array(z.string().min(1).max(128)).max(20) }),
      scopeDomain: t.arg.string({ description: 'Shop URL or hostname. Exclusive with scopeTrackedPages.', validate: z.string().min(1).max(253) }),
      status: t.arg({ type: AdStatusFilter, defaultValue: 'all' }),
      limit: t.arg.int({ defaultValue: 25, description: 'Landing pages to return, 1..100 (default 25).', validate: z.number().int().min(1).max(100) }),
    },
    validate: z
      .looseObject({ scopeTrackedPages: z.array(z.string()).nullish(), scopeDomain: z.string().nullish() })
      .superRefine((args, ctx) => {
        const pages = args.scopeTrackedPages?.length ?? 0;
        if (pages > 0 && args.scopeDomain != null) {
          ctx.addIssue({ code: 'custom', path: ['scopeDomain'], message: '{name} must not be sent together with scopeTrackedPages' });
        } else if (pages === 0 && args.scopeDomain == null) {
          ctx.addIssue({ code: 'custom', path: ['scopeTrackedPages'], message: 'scopeTrackedPages or scopeDomain is required' });
        }
      }),
    resolve: async (_root, args, context) => {
      const limit = args.limit ?? 25;
      const status = args.status ?? 'all';
      const pages = args.scopeTrackedPages ?? [];
      const host = args.scopeDomain ? hostOf(args.scopeDomain) : null;
      const rows = await adLandingPages(context.prisma, host ? { host } : { advertiserIds: pages }, status, limit);
      return {
        data: rows.slice(0, limit),
        meta: { scopeType: host ? ('domain' as const) : ('trackedPages' as const), scopeValueCount: host ? 1 : pages.length, status, limit, isTruncated: rows.length > limit },
      };
    },
  }),
}));

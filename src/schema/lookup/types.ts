import { builder } from '../builder.js';

// GET /v1/lookup: each result links what is known of one brand (its workspace brandtracker, its Facebook page
// as an advertiser, its shop), whichever of them matched.

export const LOOKUP_TYPES = ['brandtracker', 'advertiser', 'shop'] as const;
export type LookupType = (typeof LOOKUP_TYPES)[number];
export type MatchField = 'name' | 'domain' | 'facebookPageId' | 'instagramHandle';

export type LookupResult = {
  type: LookupType;
  matchType: 'exact' | 'fuzzy';
  matchField: MatchField;
  score: number;
  brandtracker: { id: string; name: string; facebookPageId: string | null } | null;
  advertiser: { id: string; name: string; facebookPageId: string } | null;
  shop: { id: string; domain: string; name: string } | null;
  signals: {
    activeAds: number | null;
    reach30d: bigint | null;
    totalReach: bigint | null;
    monthlyVisits: number | null;
    workspaceAddedAt: Date | null;
  };
};

export type LookupWarning = { code: 'upstream_timeout'; type: LookupType; message: string };
export type LookupMeta = { q: string; type: 'auto' | LookupType; limit: number; returned: number; partial: boolean; warnings: LookupWarning[] };

export const LookupTypeFilter = builder.enumType('LookupTypeFilter', {
  values: ['auto', ...LOOKUP_TYPES] as const,
  description: 'auto searches brandtrackers, advertisers and shops.',
});
const LookupTypeEnum = builder.enumType('LookupType', { values: LOOKUP_TYPES });
const LookupMatchType = builder.enumType('LookupMatchType', { values: ['exact', 'fuzzy'] as const });
const LookupMatchField = builder.enumType('LookupMatchField', { values: ['name', 'domain', 'facebookPageId', 'instagramHandle'] as const });

const LookupBrandtracker = builder.objectRef<NonNullable<LookupResult['brandtracker']>>('LookupBrandtracker').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name', { description: "The workspace's display name." }),
    facebookPageId: t.exposeString('facebookPageId', { nullable: true }),
  }),
});

const LookupAdvertiser = builder.objectRef<NonNullable<LookupResult['advertiser']>>('LookupAdvertiser').implement({
  fields: (t) => ({ id: t.exposeID('id'), name: t.exposeString('name'), facebookPageId: t.exposeString('facebookPageId') }),
});

const LookupShop = builder.objectRef<NonNullable<LookupResult['shop']>>('LookupShop').implement({
  fields: (t) => ({ id: t.exposeID('id'), domain: t.exposeString('domain'), name: t.exposeString('name') }),
});

const LookupSignals = builder.objectRef<LookupResult>('LookupSignals').implement({
  description: 'What tells candidates apart; null where the result has no such record.',
  fields: (t) => ({
    activeAds: t.int({ nullable: true, resolve: (result) => result.signals.activeAds }),
    liveAdsCount: t.int({ nullable: true, description: 'Same as activeAds.', resolve: (result) => result.signals.activeAds }),
    reach30d: t.field({ type: 'SafeInt', nullable: true, resolve: (result) => result.signals.reach30d }),
    totalReach: t.field({ type: 'SafeInt', nullable: true, resolve: (result) => result.signals.totalReach }),
    monthlyVisits: t.int({ nullable: true, resolve: (result) => result.signals.monthlyVisits }),
    workspaceAddedAt: t.field({ type: 'DateTime', nullable: true, resolve: (result) => result.signals.workspaceAddedAt }),
    hasBrandtracker: t.boolean({ description: 'Tracked in this workspace.', resolve: (result) => result.brandtracker !== null }),
    hasAdvertiser: t.boolean({ resolve: (result) => result.advertiser !== null }),
    hasShop: t.boolean({ resolve: (result) => result.shop !== null }),
  }),
});

const LookupResultRef = builder.objectRef<LookupResult>('LookupResult').implement({
  fields: (t) => ({
    type: t.field({ type: LookupTypeEnum, resolve: (result) => result.type }),
    matchType: t.field({ type: LookupMatchType, resolve: (result) => result.matchType }),
    matchField: t.field({ type: LookupMatchField, resolve: (result) => result.matchField }),
    score: t.exposeFloat('score', { description: '1 for exact matches; below 1 for fuzzy name matches: 0.99 times the word similarity of the name to the query (pg_trgm), at least 0.5.' }),
    brandtracker: t.field({ type: LookupBrandtracker, nullable: true, resolve: (result) => result.brandtracker }),
    advertiser: t.field({ type: LookupAdvertiser, nullable: true, resolve: (result) => result.advertiser }),
    shop: t.field({ type: LookupShop, nullable: true, resolve: (result) => result.shop }),
    signals: t.field({ type: LookupSignals, resolve: (result) => result }),
  }),
});

const LookupWarningRef = builder.objectRef<LookupWarning>('LookupWarning').implement({
  fields: (t) => ({
    code: t.exposeString('code', { description: 'upstream_timeout: a source did not answer in time; the others did.' }),
    type: t.field({ type: LookupTypeEnum, resolve: (warning) => warning.type }),
    message: t.exposeString('message'),
  }),
});

const LookupMetaRef = builder.objectRef<LookupMeta>('LookupMeta').implement({
  fields: (t) => ({
    q: t.exposeString('q'),
    type: t.field({ type: LookupTypeFilter, resolve: (meta) => meta.type }),
    limit: t.exposeInt('limit'),
    returned: t.exposeInt('returned'),
    partial: t.exposeBoolean('partial', { description: 'True when a source timed out and the results may miss its matches.' }),
    warnings: t.field({ type: [LookupWarningRef], resolve: (meta) => meta.warnings }),
  }),
});

export const LookupPage = builder.objectRef<{ data: LookupResult[]; meta: LookupMeta }>('LookupPage').implement({
  fields: (t) => ({
    data: t.field({ type: [LookupResultRef], resolve: (page) => page.data }),
    meta: t.field({ type: LookupMetaRef, resolve: (page) => page.meta }),
  }),
});

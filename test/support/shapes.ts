// Response shapes from the specification, and a way to compare a JSON value's keys with them.
// A shape is written as an example value: objects list their keys, an array holds one example item,
// and any leaf (1, '', null) stands for a scalar.

/**
 * Every key path of a JSON value, sorted: `a`, `a.b`, and `a[].b` for the items of an array. All items
 * of an array must have the same key paths (a mixed list fails loudly). Null and scalars end a path.
 */
export function keyPaths(value: unknown, prefix = ''): string[] {
  const out = new Set<string>();
  const visit = (node: unknown, at: string) => {
    if (Array.isArray(node)) {
      let first: string[] | null = null;
      for (const [index, item] of node.entries()) {
        const paths = keyPaths(item, `${at}[]`);
        if (first && JSON.stringify(paths) !== JSON.stringify(first)) {
          throw new Error(`items of ${at || 'the array'} differ in keys: item 0 ${JSON.stringify(first)}, item ${index} ${JSON.stringify(paths)}`);
        }
        first ??= paths;
        paths.forEach((path) => out.add(path));
      }
      return;
    }
    if (node === null || typeof node !== 'object') return;
    for (const [key, child] of Object.entries(node)) {
      const path = at ? `${at}.${key}` : key;
      out.add(path);
      visit(child, path);
    }
  };
  visit(value, prefix);
  return [...out].sort();
}

/** The top-level keys of an object, sorted. */
export const keysOf = (value: object) => Object.keys(value).sort();

// --- Specification: "Ad summary (PublicAd)"; collationId only on rows that stand for a duplicate group.
export const AD_SUMMARY = {
  id: 1,
  platform: 1,
  status: 1,
  createdAt: 1,
  firstSeenAt: 1,
  lastSeenAt: 1,
  daysRunning: 1,
  media: { type: 1, thumbnailUrl: 1, mediaUrl: 1 },
  advertiser: {
    id: 1, name: 1, logoUrl: 1, facebookPageId: 1, liveAdsCount: 1, reach30d: 1, totalReach: 1, countriesCount: 1, facebookLikes: 1, instagramFollowers: 1,
  },
  content: { title: 1, body: 1, transcript: 1, callToAction: 1, landingPageUrl: 1, landingPageDomain: 1, ctaDescription: 1, ctaLinkDescription: 1 },
  metrics: { reach: 1, aggregatedReach: 1, estimatedSpend: 1, duplicates: 1, reachDelta1d: 1, reachDelta7d: 1, reachDelta30d: 1 },
  audience: { targetedCountries: [''], mainCountry: 1, gender: 1, ageMin: 1, ageMax: 1 },
  rank: { positionInPage: 1, currentRank: 1, rankDelta: 1, improvementPct: 1 },
  flags: { isEuAd: 1, isLowReach: 1, isMediaChanged: 1, hasPartnerBadge: 1 },
};
export const AD_SUMMARY_GROUPED = { ...AD_SUMMARY, collationId: 1 };

// --- Specification: "Ad detail (Ad summary plus)"; resolvedFrom only when another group member is returned.
const AD_DETAIL_EXTRA = {
  transcript: { language: 1, languageConfidence: 1, segments: [{ start: 1, end: 1, text: 1 }], fullText: 1 },
  creativeAnalysis: { hook: { text: 1, source: 1, sourceDescription: 1, isFallback: 1 } },
  links: { adLibraryUrl: 1, landingPageUrl: 1 },
  shops: [{ shopId: 1, domain: 1, name: 1, isPrimary: 1, traffic: 1, categories: [''] }],
  pageAnalytics: {
    impressionsHistory: [{ date: 1, totalImpressions: 1 }],
    facebookLikesHistory: [{ date: 1, value: 1 }],
    instagramFollowersHistory: [{ date: 1, value: 1 }],
  },
};
export const AD_DETAIL_GROUPED = { ...AD_SUMMARY_GROUPED, ...AD_DETAIL_EXTRA };
export const AD_DETAIL_RESOLVED = { ...AD_DETAIL_GROUPED, resolvedFrom: { requestedId: 1, reason: 1 } };

// --- Specification: "Workspace, credential, usage" and gaps-filled "Identity" (GET /v1/me).
export const ME = {
  requestId: 1,
  credential: { id: 1, name: 1, description: 1, accessLevel: 1, expiresAt: 1, createdAt: 1, lastUsedAt: 1 },
  workspace: { id: 1, slug: 1, name: 1, createdAt: 1 },
  delegatedUser: { id: 1, fullName: 1, avatarUrl: 1, workspaceRole: 1 },
};
export const WORKSPACE = {
  requestId: 1,
  workspace: { id: 1, slug: 1, name: 1, createdAt: 1 },
  authenticatedAs: { accessLevel: 1, delegatedUserId: 1, delegatedUserRole: 1 },
  credential: { id: 1, name: 1, description: 1, expiresAt: 1, createdAt: 1, lastUsedAt: 1 },
};
export const USAGE = {
  requestId: 1,
  workspace: { id: 1, slug: 1, name: 1 },
  credential: { id: 1, accessLevel: 1, lastUsedAt: 1 },
  billing: { configured: 1, planCode: 1, currentPeriodStart: 1, currentPeriodEnd: 1, updatedAt: 1 },
  includedQuota: { limit: 1, used: 1, remaining: 1 },
  credits: { balance: 1, recurring: { limit: 1, used: 1, remaining: 1 }, topup: { balance: 1 }, totalRemaining: 1 },
};

export const PAGE_PAGINATION = { page: 1, limit: 1, total: 1, totalPages: 1 };

/** The error envelope; `details.validationErrors[]` on validation failures. */
export const ERROR = { error: { code: 1, message: 1, requestId: 1 } };
export const VALIDATION_ERROR = {
  error: { code: 1, message: 1, requestId: 1, details: { validationErrors: [{ field: 1, location: 1, expected: [''] }] } },
};

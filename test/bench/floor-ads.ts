import { daysRunning, estimatedSpend, DEFAULT_CPM } from '../../src/schema/ads/types.js';
import { iso, num, type Row } from './floor-common.js';

// The Ad summary as the floor builds it from an ads row and its advertiser row (S1, S2, S4 and the workspace's top ads).

export const AD_COLUMNS = `to_jsonb(a) - 'searchText' AS ad, to_jsonb(v) - 'searchName' AS advertiser, t."fullText" AS "transcriptText"`;

export function summary(ad: Row, advertiser: Row, transcriptText: string | null): Row {
  const collated = ad.duplicates > 1;
  const out: Row = { id: ad.id };
  if (collated) out.collationId = ad.collationId;
  Object.assign(out, {
    platform: ad.platform,
    status: ad.status,
    createdAt: iso(ad.createdAt),
    firstSeenAt: iso(ad.firstSeenAt),
    lastSeenAt: collated && ad.status === 'active' ? null : iso(ad.lastSeenAt),
    daysRunning: daysRunning({ status: ad.status, firstSeenAt: new Date(ad.firstSeenAt), lastSeenAt: new Date(ad.lastSeenAt) }),
    media: { type: ad.mediaType, thumbnailUrl: ad.thumbnailUrl, mediaUrl: ad.mediaUrl },
    advertiser: {
      id: advertiser.id, name: advertiser.name, logoUrl: advertiser.logoUrl, facebookPageId: advertiser.id, liveAdsCount: advertiser.liveAdsCount,
      reach30d: num(advertiser.reach30d), totalReach: num(advertiser.totalReach), countriesCount: advertiser.countriesCount,
      facebookLikes: advertiser.facebookLikes, instagramFollowers: advertiser.instagramFollowers,
    },
    content: {
      title: ad.title, body: ad.body, transcript: transcriptText, callToAction: ad.callToAction, landingPageUrl: ad.landingPageUrl,
      landingPageDomain: ad.landingPageDomain, ctaDescription: ad.ctaDescription, ctaLinkDescription: ad.ctaLinkDescription,
    },
    metrics: {
      reach: num(ad.reach), aggregatedReach: num(ad.aggregatedReach), estimatedSpend: estimatedSpend(ad.reach, DEFAULT_CPM), duplicates: ad.duplicates,
      reachDelta1d: num(ad.reachDelta1d), reachDelta7d: num(ad.reachDelta7d), reachDelta30d: num(ad.reachDelta30d),
    },
    audience: { targetedCountries: ad.targetedCountries, mainCountry: ad.mainCountry, gender: ad.gender, ageMin: ad.ageMin, ageMax: ad.ageMax },
    rank: { positionInPage: ad.positionInPage, currentRank: ad.currentRank, rankDelta: ad.rankDelta, improvementPct: ad.improvementPct },
    flags: { isEuAd: ad.isEuAd, isLowReach: ad.isLowReach, isMediaChanged: ad.isMediaChanged, hasPartnerBadge: ad.hasPartnerBadge },
  });
  return out;
}

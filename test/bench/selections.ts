// The GraphQL selections of the bench's ad scenarios (S2's ad summary, S4's ad detail): the fields REST's routes answer,
// so that GraphQL and REST are measured on the same work (test/bench/run.ts, test/bench/rest-overhead.ts).

export const AD_SUMMARY_SELECTION = `id collationId platform status createdAt firstSeenAt lastSeenAt daysRunning media { type thumbnailUrl mediaUrl }
  advertiser { id name logoUrl facebookPageId liveAdsCount reach30d totalReach countriesCount facebookLikes instagramFollowers }
  content { title body transcript callToAction landingPageUrl landingPageDomain ctaDescription ctaLinkDescription }
  metrics { reach aggregatedReach estimatedSpend duplicates reachDelta1d reachDelta7d reachDelta30d }
  audience { targetedCountries mainCountry gender ageMin ageMax } rank { positionInPage currentRank rankDelta improvementPct }
  flags { isEuAd isLowReach isMediaChanged hasPartnerBadge }`;
export const AD_DETAIL_SELECTION = `${AD_SUMMARY_SELECTION} transcript { language languageConfidence segments { start end text } fullText }
  creativeAnalysis { hook { text source sourceDescription isFallback } } links { adLibraryUrl landingPageUrl }
  shops { shopId domain name isPrimary traffic categories }
  pageAnalytics { impressionsHistory { date totalImpressions } facebookLikesHistory { date value } instagramFollowersHistory { date value } }`;

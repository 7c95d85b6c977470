// Figures of an advertiser derived from the ads loaded with it.

export type LandingPageUse = { landingPage: string; screenshotUrl: string | null };
type AdLanding = { reach: bigint; landingPage: { normalizedUrl: string; screenshotDesktopUrl: string | null } | null };
export type AdReach = { reach: bigint; targetedCountries: string[] };

const MAIN_LANDING_PAGES = 3;

/** The landing pages the given ads lead to, the most used first (ties: the larger reach), at most three. */
export function mainLandingPages(ads: readonly AdLanding[]): LandingPageUse[] {
  const uses = new Map<string, { page: LandingPageUse; ads: number; reach: bigint }>();
  for (const ad of ads) {
    if (!ad.landingPage) continue;
    const key = ad.landingPage.normalizedUrl;
    const use = uses.get(key) ?? { page: { landingPage: key, screenshotUrl: ad.landingPage.screenshotDesktopUrl }, ads: 0, reach: 0n };
    use.ads += 1;
    use.reach += ad.reach;
    uses.set(key, use);
  }
  return [...uses.values()]
    .sort((a, b) => b.ads - a.ads || (b.reach > a.reach ? 1 : b.reach < a.reach ? -1 : a.page.landingPage < b.page.landingPage ? -1 : 1))
    .slice(0, MAIN_LANDING_PAGES)
    .map((use) => use.page);
}

/**
 * Where the active ads reach: each ad's reach split evenly over its targeted countries, as shares of the
 * whole (they add up to 1), largest first. Ads without reach count as one impression each, so a page whose
 * ads have no reach yet still shows where it advertises.
 */
export function countryDistribution(ads: readonly AdReach[]): { countryCode: string; share: number }[] {
  const byCountry = new Map<string, number>();
  let total = 0;
  for (const ad of ads) {
    if (!ad.targetedCountries.length) continue;
    const weight = Math.max(Number(ad.reach), 1);
    total += weight;
    for (const country of ad.targetedCountries) byCountry.set(country, (byCountry.get(country) ?? 0) + weight / ad.targetedCountries.length);
  }
  return [...byCountry]
    .map(([countryCode, reach]) => ({ countryCode, share: Math.round((reach / total) * 10_000) / 10_000 }))
    .sort((a, b) => b.share - a.share || (a.countryCode < b.countryCode ? -1 : 1));
}

// Figures of an advertiser derived from the ads loaded with it.

export type AdReach = { reach: bigint; targetedCountries: string[] };

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

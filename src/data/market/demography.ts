import type { Rng } from '../random.js';
import type { AdSeed } from './ads.js';
import { splitInteger } from './product-ads.js';
import { COUNTRY_WEIGHTS, EU_UK, type Category } from './words.js';

// The EU delivery breakdown of the Meta ads (`ad_demography`, the Ad Library's age_country_gender_reach_breakdown):
// only EU/UK ads have one, as only their transparency data carries it. An ad's cells add up to its reach (the EU
// total reach, as the importer stores it), its main country reaches at least as many people as any other, and
// only the age ranges and genders the ad targets are reached.

/** The Ad Library's age ranges the generated ads can reach (they target 18 and over; 13-17 never appears). */
const AGE_RANGES = ['18-24', '25-34', '35-44', '45-54', '55-64', '65+'] as const;
const DEMOGRAPHY_GENDERS = ['female', 'male', 'unknown'] as const;

export type DemographyCell = {
  country: string;
  ageRange: (typeof AGE_RANGES)[number];
  gender: (typeof DEMOGRAPHY_GENDERS)[number];
  reach: number;
};

/** Countries per breakdown: bounds an ad's cells to 3 × 6 × 3 (about 17 on average), however many EU countries it targets. */
const MAX_COUNTRIES = 3;
/** Lower and upper age of each range, in AGE_RANGES order (65+ is reached only by ads targeting up to 65). */
const AGE_BOUNDS: readonly (readonly [number, number])[] = [[18, 24], [25, 34], [35, 44], [45, 54], [55, 64], [65, 65]];
/** Meta's delivery leans to 25–44 whatever the targeting. */
const AGE_WEIGHTS = [14, 30, 24, 16, 10, 6];
/** The female share of an ad targeting everyone, by the page's category. */
const FEMALE_SHARE: Partial<Record<Category, number>> = {
  Beauty: 0.78, Jewelry: 0.72, Clothing: 0.6, 'Home decor': 0.6, 'Health & wellness': 0.58, Electronics: 0.32, Sports: 0.42,
};
const COUNTRY_WEIGHT = new Map(COUNTRY_WEIGHTS);

/** The breakdown of one ad (none for a non-EU ad), drawn after its reach. */
export function drawDemography(rng: Rng, ad: AdSeed): DemographyCell[] {
  if (!ad.isEuAd || ad.reach <= 0) return [];
  // The main country first (mainCountry is the first EU/UK country the ad targets), then the others in targeting
  // order; the largest share goes to it, as the importer takes the country with the most reach for mainCountry.
  const countries = ad.targetedCountries.filter((code) => EU_UK.has(code)).slice(0, MAX_COUNTRIES);
  const split = splitInteger(ad.reach, countries.map((code) => (COUNTRY_WEIGHT.get(code) ?? 1) * rng.logNormal(1, 0.5)));
  const byCountry = split.sort((a, b) => b - a);

  const ages = AGE_RANGES.flatMap((range, i) => {
    const [low, high] = AGE_BOUNDS[i];
    return low <= ad.ageMax && high >= ad.ageMin ? [{ range, weight: AGE_WEIGHTS[i] * rng.logNormal(1, 0.35) }] : [];
  });
  const leaning = (FEMALE_SHARE[ad.advertiser.category] ?? 0.5) + rng.float(-0.1, 0.1);
  const female = ad.gender === 'women' ? 1 : ad.gender === 'men' ? 0 : leaning;
  // Some people have no gender on their profile; the Ad Library then reports them as unknown, about 1 in 100.
  const unknown = rng.chance(0.4) ? rng.float(0.003, 0.02) : 0;
  const genders = [
    { gender: 'female' as const, share: female * (1 - unknown) },
    { gender: 'male' as const, share: (1 - female) * (1 - unknown) },
    { gender: 'unknown' as const, share: unknown },
  ].filter((g) => g.share > 0);

  const cells: DemographyCell[] = [];
  for (const [c, country] of countries.entries()) {
    const mix = ages.flatMap(({ range, weight }) => genders.map(({ gender, share }) => ({ ageRange: range, gender, weight: weight * share })));
    const reach = splitInteger(byCountry[c], mix.map((cell) => cell.weight));
    for (const [i, cell] of mix.entries()) if (reach[i] > 0) cells.push({ country, ageRange: cell.ageRange, gender: cell.gender, reach: reach[i] });
  }
  return cells;
}

import { Prisma } from '../../../generated/prisma/client.js';
import type { CountryFilter } from '../../shared/countries.js';
import { pagesByAdsGrowth, pagesByReachGrowth, type GrowthFilter } from '../../shared/growth-filter.js';
import { range, type Range } from '../../shared/ranges.js';
import type { ReachPeriodValue } from '../enums.js';
import { partnershipPercentage, reachOver, type Figures } from './reach.js';

// Conditions on what an advertiser links to: its shops (categories, technologies) and its ads (countries,
// languages, partnership share, audience ages), its spend, and the growth of its ads and reach.

export type PageFilter = {
  /** Google taxonomy ids (the categories facet) of any linked shop. */
  categoryIds?: number[] | null;
  /** Page niches as Google taxonomy ids: of the primary shop (main), of any linked shop (among), of none (exclude). */
  pageNiches?: { main?: number[] | null; among?: number[] | null; exclude?: number[] | null } | null;
  shopifyLinked?: 'yes' | 'no' | 'all' | null;
  /** Technology slugs (the technologies facet) of any linked shop. */
  technologies?: string[] | null;
  adCountries?: CountryFilter | null;
  /** How adCountries reads a country: adCount (default) an ad targeting it, reach an ad with reach there (EU/UK transparency data). */
  countryFilterMode?: 'reach' | 'adCount' | null;
  mainCountries?: string[] | null;
  adLanguages?: string[] | null;
  ageRanges?: { min: number; max: number }[] | null;
  /** Partnership ads, in percent of the page's ads. */
  minPartnershipPercentage?: number | null;
  reachPerPage?: Range<number> & { period: ReachPeriodValue };
  spendPerPage?: Range<number> & { period: ReachPeriodValue; cpm: number };
  adsGrowth?: GrowthFilter | null;
  pageReachGrowth?: GrowthFilter | null;
};

const sql = Prisma.sql;

const linkedShop = (condition: Prisma.Sql, primaryOnly = false) => sql`EXISTS (SELECT 1 FROM "advertiser_shops" l JOIN "shops" s ON s."id" = l."shopId"
  WHERE l."advertiserId" = v."id"${primaryOnly ? sql` AND l."isPrimary"` : Prisma.empty} AND ${condition})`;
const usesTechnology = (slugs: Prisma.Sql) => sql`EXISTS (SELECT 1 FROM "shop_technologies" st JOIN "technologies" te ON te."id" = st."technologyId"
  WHERE st."shopId" = s."id" AND te."slug" = ANY(${slugs}))`;
const anAd = (condition: Prisma.Sql) => sql`EXISTS (SELECT 1 FROM "ads" a WHERE a."advertiserId" = v."id" AND a."isGroupLead" AND ${condition})`;

export function pageConditions(filter: PageFilter, figures: Figures): Prisma.Sql[] {
  const out: Prisma.Sql[] = [];
  if (filter.categoryIds?.length) out.push(linkedShop(sql`s."categoryIds" && ${filter.categoryIds}::int[]`));
  const niches = filter.pageNiches;
  if (niches?.main?.length) out.push(linkedShop(sql`s."categoryIds" && ${niches.main}::int[]`, true));
  if (niches?.among?.length) out.push(linkedShop(sql`s."categoryIds" && ${niches.among}::int[]`));
  if (niches?.exclude?.length) out.push(sql`NOT ${linkedShop(sql`s."categoryIds" && ${niches.exclude}::int[]`)}`);
  if (filter.shopifyLinked === 'yes') out.push(linkedShop(usesTechnology(sql`ARRAY['shopify']`)));
  if (filter.shopifyLinked === 'no') out.push(sql`NOT ${linkedShop(usesTechnology(sql`ARRAY['shopify']`))}`);
  if (filter.technologies?.length) out.push(linkedShop(usesTechnology(sql`${filter.technologies}::text[]`)));
  const inCountries = filter.countryFilterMode === 'reach'
    ? (codes: string[]) => sql`EXISTS (SELECT 1 FROM "ad_demography" d WHERE d."adId" = a."id" AND d."country" = ANY(${codes}::text[]) AND d."reach" > 0)`
    : (codes: string[]) => sql`a."targetedCountries" && ${codes}::text[]`;
  if (filter.adCountries?.include?.length) out.push(anAd(inCountries(filter.adCountries.include)));
  if (filter.adCountries?.exclude?.length) out.push(sql`NOT ${anAd(inCountries(filter.adCountries.exclude))}`);
  if (filter.mainCountries?.length) out.push(anAd(sql`a."mainCountry" = ANY(${filter.mainCountries}::text[])`));
  if (filter.adLanguages?.length) {
    out.push(anAd(sql`(a."languages" && ${filter.adLanguages}::text[]
      OR EXISTS (SELECT 1 FROM "ad_transcripts" t WHERE t."adId" = a."id" AND t."language" = ANY(${filter.adLanguages}::text[])))`));
  }
  if (filter.ageRanges?.length) {
    const overlaps = filter.ageRanges.map(({ min, max }) => sql`(coalesce(a."ageMin", 13) <= ${max} AND coalesce(a."ageMax", 65) >= ${min})`);
    out.push(anAd(sql`(${Prisma.join(overlaps, ' OR ')})`));
  }
  if (filter.minPartnershipPercentage != null) out.push(sql`${figures.use(partnershipPercentage())} >= ${filter.minPartnershipPercentage}`);
  const { reachPerPage, spendPerPage } = filter;
  if (reachPerPage && (reachPerPage.min != null || reachPerPage.max != null)) range(figures.use(reachOver(reachPerPage.period)), reachPerPage, out);
  if (spendPerPage && (spendPerPage.min != null || spendPerPage.max != null)) {
    range(sql`round(${figures.use(reachOver(spendPerPage.period))} * ${spendPerPage.cpm}::float8 / 1000)`, spendPerPage, out);
  }
  if (filter.adsGrowth) out.push(sql`v."id" IN (${pagesByAdsGrowth(filter.adsGrowth)})`);
  if (filter.pageReachGrowth) out.push(sql`v."id" IN (${pagesByReachGrowth(filter.pageReachGrowth)})`);
  return out;
}

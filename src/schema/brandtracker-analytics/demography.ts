import { builder } from '../builder.js';
import { frameArgs, TimeWindow } from './args.js';
import { adsOf, frameOf } from './frame.js';

// GET /v1/brandtrackers/{brandtrackerId}/demography: the EU delivery of the brand's ads (the Ad Library's country,
// age and gender reach breakdown, `ad_demography`), summed over all its ads. The data is EU-only whatever euOnly
// says; snapshotDate and timePeriod are accepted (and validated) but do not filter.

type Point<K extends string> = { [key in K]: string } & { reach: number };
type Demography = {
  hasData: boolean;
  countryDistribution: Point<'countryCode'>[];
  ageDistribution: Point<'ageRange'>[];
  genderDistribution: Point<'gender'>[];
};

const point = <K extends string>(name: string, key: K, description: string) =>
  builder.objectRef<Point<K>>(name).implement({
    fields: (t) => ({
      [key]: t.string({ description, resolve: (row: Point<K>) => row[key] }),
      reach: t.field({ type: 'SafeInt', description: 'Reach of the ads there, summed.', resolve: (row: Point<K>) => row.reach }),
    }),
  });

const CountryPoint = point('BrandtrackerCountryReach', 'countryCode', 'ISO country code.');
const AgePoint = point('BrandtrackerAgeReach', 'ageRange', 'Age range, e.g. 18-24 or 65+.');
const GenderPoint = point('BrandtrackerGenderReach', 'gender', 'female, male or unknown.');

const DemographyRef = builder.objectRef<Demography>('BrandtrackerDemography').implement({
  fields: (t) => ({
    hasData: t.exposeBoolean('hasData', { description: 'Whether any ad of the brand has a breakdown.' }),
    countryDistribution: t.field({ type: [CountryPoint], description: 'Most reach first.', resolve: (d) => d.countryDistribution }),
    ageDistribution: t.field({ type: [AgePoint], description: 'By age range, youngest first.', resolve: (d) => d.ageDistribution }),
    genderDistribution: t.field({ type: [GenderPoint], description: 'By gender, alphabetically.', resolve: (d) => d.genderDistribution }),
  }),
});

const DemographyResponse = builder.objectRef<{ data: Demography }>('BrandtrackerDemographyResponse').implement({
  fields: (t) => ({ data: t.field({ type: DemographyRef, resolve: (response) => response.data }) }),
});

builder.queryFields((t) => ({
  brandtrackerDemography: t.field({
    type: DemographyResponse,
    authScopes: { workspace: true },
    description:
      "EU reach of a brandtracker's ads by country, age and gender (GET /v1/brandtrackers/{brandtrackerId}/demography), over all its ads " +
      '(the breakdown is EU data). snapshotDate and timePeriod are accepted but do not filter.',
    args: {
      ...frameArgs({ euOnly: true, snapshot: true }),
      timePeriod: t.arg({ type: TimeWindow, description: 'Accepted for compatibility; does not filter.' }),
    },
    resolve: async (_root, args, context) => {
      const frame = await frameOf(context, { brandtrackerId: args.brandtrackerId, euOnly: args.euOnly }, { euOnly: true });
      const [row] = await context.prisma.$queryRaw<Demography[]>`
        WITH d AS MATERIALIZED (
          SELECT d."country", d."ageRange", d."gender", d."reach" FROM "ad_demography" d JOIN "ads" a ON a."id" = d."adId" WHERE ${adsOf(frame)}
        )
        SELECT EXISTS (SELECT 1 FROM d) AS "hasData",
          (SELECT coalesce(json_agg(json_build_object('countryCode', x."country", 'reach', x."reach") ORDER BY x."reach" DESC, x."country"), '[]')
             FROM (SELECT "country", sum("reach")::bigint AS "reach" FROM d GROUP BY 1) x) AS "countryDistribution",
          (SELECT coalesce(json_agg(json_build_object('ageRange', x."ageRange", 'reach', x."reach") ORDER BY x."ageRange"), '[]')
             FROM (SELECT "ageRange", sum("reach")::bigint AS "reach" FROM d GROUP BY 1) x) AS "ageDistribution",
          (SELECT coalesce(json_agg(json_build_object('gender', x."gender", 'reach', x."reach") ORDER BY x."gender"), '[]')
             FROM (SELECT "gender", sum("reach")::bigint AS "reach" FROM d GROUP BY 1) x) AS "genderDistribution"`;
      return { data: row };
    },
  }),
}));

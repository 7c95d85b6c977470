import { builder } from '../builder.js';
import { frameArgs } from './args.js';
import { TimeWindow } from './enums.js';
import { demographyOf, frameOf, type Demography, type Point } from './service.js';

// GET /v1/brandtrackers/{brandtrackerId}/demography: the EU delivery of the brand's ads (the Ad Library's country,
// age and gender reach breakdown, `ad_demography`), summed over all its ads. The data is EU-only whatever euOnly
// says; snapshotDate and timePeriod are accepted (and validated) but do not filter.

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
      return { data: await demographyOf(context.prisma, frame) };
    },
  }),
}));

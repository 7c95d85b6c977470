import type { PrismaClient } from '../../../generated/prisma/client.js';
import { adsOf, type Frame } from './frame.js';

// GET /v1/brandtrackers/{brandtrackerId}/demography: the EU delivery of the brand's ads (the Ad Library's country,
// age and gender reach breakdown, `ad_demography`), summed over all its ads, in one statement.

export type Point<K extends string> = { [key in K]: string } & { reach: number };
export type Demography = {
  hasData: boolean;
  countryDistribution: Point<'countryCode'>[];
  ageDistribution: Point<'ageRange'>[];
  genderDistribution: Point<'gender'>[];
};

export async function demographyOf(prisma: Pick<PrismaClient, '$queryRaw'>, frame: Frame): Promise<Demography> {
  const [row] = await prisma.$queryRaw<Demography[]>`
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
  return row;
}

import { Prisma } from '../../generated/prisma/client.js';
import { getDatamodel } from '../../generated/pothos-types.js';
import { AD_SUMMARY_INCLUDE, type AdSummaryRow } from './types.js';

// Ads by id, for every list that finds a page of ad ids and then loads them (ads, advertiser ads, brandtracker
// analytics, favorites, workspace analytics). Prisma's findMany maps each value of each row in JavaScript, which
// for a page of 400 ads with their advertisers cost more of Node's time than the rest of the request. When the
// request selects no more than an ad summary (the ad's fields, its advertiser, its transcript's text), one statement
// has PostgreSQL write the rows as JSON, which is parsed at once and given Prisma's types back (DateTime as Date,
// BigInt as bigint). Any other selection is Prisma's. The columns come from the Prisma datamodel, so a field added to
// the schema is loaded without touching this file; a test compares both paths row for row.

type ModelField = { readonly name: string; readonly kind: string; readonly type: string; readonly isList: boolean };

const models = getDatamodel().datamodel.models as Record<string, { fields: readonly ModelField[] }>;
const scalarsOf = (model: string) => models[model].fields.filter((field) => field.kind === 'scalar' || field.kind === 'enum');

/** `alias."field"` for each scalar field of the model, BigInt as text (JSON numbers lose digits past 2^53). */
function columns(model: string, alias: string): string {
  return scalarsOf(model)
    .map((field) => (field.type === 'BigInt' ? `${alias}."${field.name}"::text AS "${field.name}"` : `${alias}."${field.name}"`))
    .join(', ');
}

/** The model's scalar fields as one JSON object (json_build_object takes at most 100 arguments: 50 fields). */
function jsonObject(model: string, alias: string): string {
  const fields = scalarsOf(model);
  if (fields.length > 50) throw new Error(`${model}: too many fields for json_build_object`);
  return `json_build_object(${fields.map((field) => `'${field.name}', ${alias}."${field.name}"${field.type === 'BigInt' ? '::text' : ''}`).join(', ')})`;
}

/** Turns the JSON values of a row back into Prisma's types, in place (a NULL list reads as [], as Prisma reads it). */
function reviver(model: string): (row: Record<string, unknown>) => void {
  const named = (keep: (field: ModelField) => boolean) => scalarsOf(model).filter(keep).map((field) => field.name);
  const dates = named((field) => field.type === 'DateTime' && !field.isList);
  const bigints = named((field) => field.type === 'BigInt' && !field.isList);
  const lists = named((field) => field.isList);
  if (named((field) => field.isList && (field.type === 'DateTime' || field.type === 'BigInt')).length) throw new Error(`${model}: lists of dates or bigints are not revived`);
  return (row) => {
    for (const name of dates) if (row[name] != null) row[name] = new Date(row[name] as string);
    for (const name of bigints) if (row[name] != null) row[name] = BigInt(row[name] as string);
    for (const name of lists) row[name] ??= [];
  };
}

const reviveAd = reviver('Ad');
const reviveAdvertiser = reviver('Advertiser');

// The advertiser and the transcript's text (AD_SUMMARY_INCLUDE) are LATERAL joins with LIMIT 1, as Prisma writes
// its own: the planner keeps the nested loop and memoizes the advertiser's object, built once per page, not per ad.
const SUMMARY_ROWS = Prisma.raw(`
  SELECT ${columns('Ad', 'a')}, v."json" AS "advertiser", t."json" AS "transcript"
  FROM "ads" a
  LEFT JOIN LATERAL (SELECT ${jsonObject('Advertiser', 'v0')} AS "json" FROM "advertisers" v0 WHERE v0."id" = a."advertiserId" LIMIT 1) v ON TRUE
  LEFT JOIN LATERAL (SELECT json_build_object('fullText', t0."fullText") AS "json" FROM "ad_transcripts" t0 WHERE t0."adId" = a."id" LIMIT 1) t ON TRUE`);

/** The relations the statement loads, as the ad object types include them (AD_SUMMARY_INCLUDE), by name. */
const SUMMARY_RELATIONS = new Map(Object.entries(AD_SUMMARY_INCLUDE).map(([relation, value]) => [relation, JSON.stringify(value)]));

/** Whether a Prisma query (Pothos's selection) asks for no more than the summary statement loads. */
export function isSummarySelection(query: object): boolean {
  const { include, ...rest } = query as { include?: Record<string, unknown> };
  if (Object.keys(rest).length) return false;
  return Object.entries(include ?? {}).every(([relation, value]) => value === false || SUMMARY_RELATIONS.get(relation) === JSON.stringify(value));
}

async function summaryRows(prisma: Prisma.TransactionClient, ids: string[]): Promise<AdSummaryRow[]> {
  const [{ rows }] = await prisma.$queryRaw<{ rows: string }[]>`
    SELECT coalesce(json_agg(x), '[]')::text AS "rows" FROM (${SUMMARY_ROWS} WHERE a."id" = ANY(${ids}::text[])) x`;
  const ads = JSON.parse(rows) as (Record<string, unknown> & { advertiser: Record<string, unknown> | null })[];
  for (const ad of ads) {
    reviveAd(ad);
    if (ad.advertiser) reviveAdvertiser(ad.advertiser);
  }
  return ads as unknown as AdSummaryRow[];
}

/**
 * The ads of `ids` (in no particular order), loaded with `query`, Pothos's selection for them: it always holds the
 * transcript's text, which the ad object types include (AD_SUMMARY_INCLUDE).
 */
export async function findAds(prisma: Prisma.TransactionClient, ids: string[], query: object): Promise<AdSummaryRow[]> {
  if (!ids.length) return [];
  if (isSummarySelection(query)) return summaryRows(prisma, ids);
  return (await prisma.ad.findMany({ where: { id: { in: ids } }, relationLoadStrategy: 'join', ...query })) as AdSummaryRow[];
}

import type pg from 'pg';
import { recordEvents } from '../events.js';
import type { Format, ImportContext, Outcome } from './run.js';
import { upsert } from './sql.js';
import {
  BadRecord, countryCode, idOf, isObject, optionalAudience, optionalCount, optionalString, optionalYmd, stringList,
} from './values.js';

// TikTok Commercial Content API ad query responses (POST /v2/research/adlib/ad/query/):
// `{ data: { ads: [{ ad: {…}, advertiser: {…} }], has_more, search_id }, error }`. An ad detail response
// (`{ data: { ad, advertiser } }`) and a bare array of `{ ad, advertiser }` are read too.
//
// Mapping (one record = one TikTok item of type ad):
//   ad.id (64-bit, kept as decimal text)    → tiktok_items.id (the API shows `tiktok_<id>`)
//   ad.first_shown_date (YYYYMMDD)          → publishedAt, createdAt
//   ad.last_shown_date                      → lastSeenAt (the import day while active when absent)
//   ad.status                               → status (active / inactive, anything else unknown)
//   ad.videos[].url, cover_image_url        → videoUrl, mediaUrl, thumbnailUrl; ad.image_urls → imageUrls
//                                             (mediaType video, carousel for several images, image, else unknown)
//   ad.reach.unique_users_seen              → views (the lower bound of TikTok's rounded figure: "30K", "1M-5M")
//   ad.reach.unique_users_seen_by_country   → countries (its keys)
//   ad.title                                → description
//   advertiser.business_id / business_name  → tiktok_profiles (id, name; accountType business); handle from
//                                             advertiser.profile_url when given, else `business_<id>`
//   advertiser.follower_count, avatar_url   → followers, avatarUrl (when given)
//   advertiser.paid_for_by                  → tiktok_items.paidForBy
// updatedAt and indexedAt move to the import day only when a value changes; the profile figures (items, views,
// share of ads, new items) and the items' rank by views within their profile are recomputed, and each profile
// fetched gets its day in tiktok_page_snapshots (writeSnapshots). Provenance: fetchedFrom 'tiktok-ads' and
// firstFetchedAt (the database clock), on insert only.

export type TikTokAd = {
  id: string;
  status: 'active' | 'inactive' | 'unknown';
  publishedAt: Date;
  lastSeenAt: Date | null;
  mediaType: 'video' | 'image' | 'carousel' | 'unknown';
  videoUrl: string | null;
  thumbnailUrl: string | null;
  imageUrls: string[];
  views: bigint;
  countries: string[];
  description: string;
  paidForBy: string | null;
  profile: { id: string; name: string; handle: string; avatarUrl: string | null; followers: bigint | null };
};

function videos(value: unknown): { url: string; cover: string | null }[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new BadRecord('ad.videos must be an array');
  return value.flatMap((video, i) => {
    if (typeof video === 'string') return [{ url: video, cover: null }];
    if (!isObject(video)) throw new BadRecord(`ad.videos[${i}] must be an object with a url`);
    const url = optionalString(video.url, `ad.videos[${i}].url`);
    return url ? [{ url, cover: optionalString(video.cover_image_url, `ad.videos[${i}].cover_image_url`) }] : [];
  });
}

function reachOf(value: unknown): { views: bigint; countries: string[] } {
  if (value === undefined || value === null) return { views: 0n, countries: [] };
  if (!isObject(value)) throw new BadRecord('ad.reach must be an object');
  const byCountry = value.unique_users_seen_by_country;
  const countries = new Set<string>();
  let sum = 0n;
  if (byCountry !== undefined && byCountry !== null) {
    if (!isObject(byCountry)) throw new BadRecord('ad.reach.unique_users_seen_by_country must be an object');
    for (const [key, seen] of Object.entries(byCountry)) {
      const code = countryCode(key);
      if (!code) throw new BadRecord(`ad.reach.unique_users_seen_by_country has a key that is not a country: ${JSON.stringify(key)}`);
      countries.add(code);
      sum += optionalAudience(seen, `ad.reach.unique_users_seen_by_country.${key}`) ?? 0n;
    }
  }
  const total = optionalAudience(value.unique_users_seen, 'ad.reach.unique_users_seen');
  return { views: total ?? sum, countries: [...countries].sort() };
}

const STATUSES: Record<string, TikTokAd['status']> = { active: 'active', inactive: 'inactive' };

export function parseTikTokAd(raw: unknown, context: ImportContext): TikTokAd {
  if (!isObject(raw)) throw new BadRecord('the record is not an object');
  const ad = raw.ad;
  if (!isObject(ad)) throw new BadRecord('ad is missing');
  const advertiser = raw.advertiser;
  if (!isObject(advertiser)) throw new BadRecord('advertiser is missing');
  const id = idOf(ad.id, 'ad.id');
  const publishedAt = optionalYmd(ad.first_shown_date, 'ad.first_shown_date');
  if (!publishedAt) throw new BadRecord('ad.first_shown_date is missing');
  const lastShown = optionalYmd(ad.last_shown_date, 'ad.last_shown_date');
  const statusText = optionalString(ad.status, 'ad.status');
  const status = STATUSES[statusText?.toLowerCase() ?? ''] ?? 'unknown';
  const clips = videos(ad.videos);
  const imageUrls = stringList(ad.image_urls, 'ad.image_urls').map((url) => url.trim()).filter(Boolean);
  const { views, countries } = reachOf(ad.reach);
  const businessId = idOf(advertiser.business_id, 'advertiser.business_id');
  const profileUrl = optionalString(advertiser.profile_url, 'advertiser.profile_url');
  const handle = profileUrl ? /@([A-Za-z0-9._]{2,24})/.exec(profileUrl)?.[1]?.toLowerCase() : undefined;
  let lastSeenAt = lastShown;
  if (!lastSeenAt) lastSeenAt = status === 'active' ? context.day : null;
  if (lastSeenAt && lastSeenAt < publishedAt) throw new BadRecord('ad.last_shown_date is before ad.first_shown_date');
  return {
    id,
    status,
    publishedAt,
    lastSeenAt,
    mediaType: clips.length ? 'video' : imageUrls.length > 1 ? 'carousel' : imageUrls.length === 1 ? 'image' : 'unknown',
    videoUrl: clips[0]?.url ?? null,
    thumbnailUrl: clips[0]?.cover ?? imageUrls[0] ?? null,
    imageUrls,
    views,
    countries,
    description: optionalString(ad.title, 'ad.title') ?? '',
    paidForBy: optionalString(advertiser.paid_for_by, 'advertiser.paid_for_by'),
    profile: {
      id: businessId,
      name: optionalString(advertiser.business_name, 'advertiser.business_name') ?? `TikTok business ${businessId}`,
      handle: handle ?? `business_${businessId}`,
      avatarUrl: optionalString(advertiser.avatar_url, 'advertiser.avatar_url'),
      followers: optionalCount(advertiser.follower_count, 'advertiser.follower_count'),
    },
  };
}

/** `tiktok_items.fetchedFrom` of the items this format brings in. */
const SOURCE = 'tiktok-ads';

async function applyTikTokAds(client: pg.PoolClient, ads: TikTokAd[], context: ImportContext): Promise<Map<string, Outcome>> {
  const outcomes = new Map<string, Outcome>();
  const changed = (id: string) => {
    if (!outcomes.has(id)) outcomes.set(id, 'updated');
  };
  const ids = ads.map((ad) => ad.id);
  const ours = new Set(ids);
  const day = context.day;
  const before = await client.query<{ profileId: string }>(`SELECT DISTINCT "profileId" FROM "tiktok_items" WHERE "id" = ANY($1::text[])`, [ids]);
  // The profile figures as the previous snapshot left them: the day's gains are measured from them.
  const previous = await client.query<{ id: string; views: string; likes: string; followers: string }>(
    `SELECT "id", "views", "likes", "followers" FROM "tiktok_profiles" WHERE "id" = ANY($1::text[])`,
    [ads.map((ad) => ad.profile.id)],
  );

  // Profiles: the last record of a business in the file wins; the handle is set once, when the profile is created.
  const profiles = new Map(ads.map((ad) => [ad.profile.id, ad.profile]));
  const handles = new Set<string>();
  const profileRows = [...profiles.values()].map((profile) => {
    const handle = handles.has(profile.handle) ? `business_${profile.id}` : profile.handle;
    handles.add(handle);
    return [profile.id, handle, profile.name, profile.avatarUrl, profile.followers, 'business', ''];
  });
  const profileChanges = await upsert<{ id: string; inserted: boolean }>(
    client,
    {
      table: 'tiktok_profiles',
      columns: [
        { name: 'id', type: 'text' }, { name: 'handle', type: 'text' }, { name: 'name', type: 'text' }, { name: 'avatarUrl', type: 'text' },
        { name: 'followers', type: 'int8' }, { name: 'accountType', type: 'text' }, { name: 'secUid', type: 'text' },
      ],
      key: ['id'],
      update: ['name'],
      insertAs: {
        // A handle another profile already has falls back to the business id.
        handle: `CASE WHEN EXISTS (SELECT 1 FROM "tiktok_profiles" x WHERE x."handle" = u."handle" AND x."id" <> u."id") THEN 'business_' || u."id" ELSE u."handle" END`,
        followers: 'coalesce(u."followers", 0)',
      },
      returning: 'id, (xmax = 0) AS inserted',
    },
    profileRows,
  );
  // The avatar and follower count when the file has them; absent ones keep the stored values.
  const given = [...profiles.values()].filter((profile) => profile.avatarUrl !== null || profile.followers !== null);
  const figures = await client.query<{ id: string }>(
    `UPDATE "tiktok_profiles" p SET "avatarUrl" = coalesce(u.avatar, p."avatarUrl"), "followers" = coalesce(u.followers, p."followers")
     FROM unnest($1::text[], $2::text[], $3::int8[]) AS u(id, avatar, followers)
     WHERE p."id" = u.id AND (p."avatarUrl", p."followers") IS DISTINCT FROM (coalesce(u.avatar, p."avatarUrl"), coalesce(u.followers, p."followers"))
     RETURNING p."id"`,
    [given.map((p) => p.id), given.map((p) => p.avatarUrl), given.map((p) => p.followers?.toString() ?? null)],
  );
  const inserted = new Set(profileChanges.filter((row) => row.inserted).map((row) => row.id));
  const changedProfiles = new Set([...profileChanges.map((row) => row.id), ...figures.rows.map((row) => row.id)].filter((id) => !inserted.has(id)));
  for (const ad of ads) if (changedProfiles.has(ad.profile.id)) changed(ad.id);

  const content = [
    'status', 'publishedAt', 'createdAt', 'lastSeenAt', 'mediaType', 'thumbnailUrl', 'mediaUrl', 'videoUrl', 'imageUrls', 'description',
    'countries', 'views', 'profileId', 'paidForBy',
  ];
  const written = await upsert<{ id: string; inserted: boolean }>(
    client,
    {
      table: 'tiktok_items',
      columns: [
        { name: 'id', type: 'text' }, { name: 'status', type: '"TikTokItemStatus"' }, { name: 'publishedAt', type: 'timestamptz' },
        { name: 'createdAt', type: 'timestamptz' }, { name: 'lastSeenAt', type: 'timestamptz' }, { name: 'mediaType', type: '"TikTokMediaType"' },
        { name: 'thumbnailUrl', type: 'text' }, { name: 'mediaUrl', type: 'text' }, { name: 'videoUrl', type: 'text' },
        { name: 'imageUrls', type: 'text[]' }, { name: 'description', type: 'text' }, { name: 'countries', type: 'text[]' },
        { name: 'views', type: 'int8' }, { name: 'profileId', type: 'text' }, { name: 'paidForBy', type: 'text' },
        { name: 'type', type: '"TikTokItemType"' }, { name: 'hashtags', type: 'text[]' },
        { name: 'updatedAt', type: 'timestamptz' }, { name: 'indexedAt', type: 'timestamptz' }, { name: 'fetchedFrom', type: 'text' },
      ],
      key: ['id'],
      update: content,
      alsoOnChange: [`"updatedAt" = least(excluded."indexedAt", excluded."lastSeenAt")`, `"indexedAt" = excluded."indexedAt"`],
      insertAs: { updatedAt: 'least(u."updatedAt", u."lastSeenAt")' },
      insertOnly: { firstFetchedAt: 'now()' },
      returning: 'id, (xmax = 0) AS inserted',
    },
    ads.map((ad) => {
      const lastSeenAt = ad.lastSeenAt ?? ad.publishedAt;
      return [
        ad.id, ad.status, ad.publishedAt, ad.publishedAt, lastSeenAt, ad.mediaType, ad.thumbnailUrl, ad.videoUrl ?? ad.imageUrls[0] ?? null,
        ad.videoUrl, ad.imageUrls, ad.description, ad.countries, ad.views, ad.profile.id, ad.paidForBy,
        'ad', [], day, day, SOURCE,
      ];
    }),
  );
  for (const row of written) outcomes.set(row.id, row.inserted ? 'inserted' : 'updated');
  const created = new Set(written.filter((row) => row.inserted).map((row) => row.id));
  await recordEvents(client, 'tiktok-ads', ads.filter((ad) => created.has(ad.id)).map((ad) => ({
    type: 'ad.created',
    dedupeKey: `ad.created:${ad.id}`,
    adId: ad.id,
    data: { before: null, after: { platform: 'tiktok', profileId: ad.profile.id, title: ad.description, status: ad.status, views: ad.views, firstSeenAt: ad.publishedAt.toISOString() } },
  })), context.asOf);

  // Ranks by views within each touched profile, then the profile figures.
  const touched = [...new Set([...profiles.keys(), ...before.rows.map((row) => row.profileId)])];
  const ranked = await client.query<{ id: string }>(
    `WITH r AS (
       SELECT "id", row_number() OVER w::int AS rank, round((row_number() OVER w * 100.0 / count(*) OVER (PARTITION BY "profileId"))::numeric, 1)::float8 AS pct
       FROM "tiktok_items" WHERE "profileId" = ANY($1::text[])
       WINDOW w AS (PARTITION BY "profileId" ORDER BY "views" DESC, "id" COLLATE "C"))
     UPDATE "tiktok_items" i SET "rank" = r.rank, "rankPercent" = r.pct FROM r
     WHERE i."id" = r."id" AND (i."rank", i."rankPercent") IS DISTINCT FROM (r.rank, r.pct)
     RETURNING i."id"`,
    [touched],
  );
  for (const row of ranked.rows) if (ours.has(row.id)) changed(row.id);

  await client.query(
    `WITH s AS (
       SELECT "profileId" AS id, count(*)::int AS total, sum("views")::int8 AS views, sum("likes")::int8 AS likes,
              round((count(*) FILTER (WHERE "type" = 'ad') * 100.0 / count(*))::numeric, 1)::float8 AS ads,
              (count(*) FILTER (WHERE "publishedAt" >= $2::timestamptz - interval '30 days'))::int AS recent
       FROM "tiktok_items" WHERE "profileId" = ANY($1::text[]) GROUP BY 1)
     UPDATE "tiktok_profiles" p SET "totalTikToks" = s.total, "views" = s.views, "likes" = s.likes, "percentAds" = s.ads, "newTikToks" = s.recent
     FROM s WHERE p."id" = s.id
       AND (p."totalTikToks", p."views", p."likes", p."percentAds", p."newTikToks") IS DISTINCT FROM (s.total, s.views, s.likes, s.ads, s.recent)`,
    [touched, context.asOf.toISOString()],
  );
  await writeSnapshots(client, [...profiles.keys()], previous.rows, context);
  return outcomes;
}

/**
 * The day's tiktok_page_snapshots row of each profile fetched, keyed by day (a re-run of the day overwrites it), as the
 * demo market writes them: ads and organic items live that day, items published by its end, and the day's gains of
 * the profile's views, likes and followers since its previous snapshot (0 when it has none: nothing to measure from).
 * The figures at the previous snapshot are the stored ones before this batch, less the gains already recorded for the
 * day by an earlier batch or run. recordedAt is the import's asOf, the moment it stands for.
 */
async function writeSnapshots(
  client: pg.PoolClient,
  fetched: string[],
  previous: { id: string; views: string; likes: string; followers: string }[],
  context: ImportContext,
): Promise<void> {
  await client.query(
    `WITH b AS (SELECT * FROM unnest($2::text[], $3::int8[], $4::int8[], $5::int8[]) AS b(id, views, likes, followers)),
     c AS (
       SELECT p."id", p."views", p."likes", p."followers",
              count(*) FILTER (WHERE i."type" = 'ad' AND i."publishedAt" < $9::timestamptz AND (i."status" = 'active' OR i."lastSeenAt" >= $8::timestamptz))::int AS ads,
              count(*) FILTER (WHERE i."type" = 'organic' AND i."publishedAt" < $9::timestamptz AND (i."status" = 'active' OR i."lastSeenAt" >= $8::timestamptz))::int AS organic,
              count(*) FILTER (WHERE i."publishedAt" < $9::timestamptz)::int AS total
       FROM "tiktok_profiles" p LEFT JOIN "tiktok_items" i ON i."profileId" = p."id"
       WHERE p."id" = ANY($1::text[]) GROUP BY p."id")
     INSERT INTO "tiktok_page_snapshots" AS s
       ("profileId", "date", "recordedAt", "adsCount", "organicCount", "totalTikToks", "dailyViews", "dailyLikes", "dailyFollowers")
     SELECT c."id", $6::date, $7::timestamptz, c.ads, c.organic, c.total,
            CASE WHEN known THEN c."views" - (b.views - coalesce(t."dailyViews", 0)) ELSE 0 END,
            CASE WHEN known THEN c."likes" - (b.likes - coalesce(t."dailyLikes", 0)) ELSE 0 END,
            CASE WHEN known THEN c."followers" - (b.followers - coalesce(t."dailyFollowers", 0)) ELSE 0 END
     FROM c
     LEFT JOIN b ON b.id = c."id"
     LEFT JOIN "tiktok_page_snapshots" t ON t."profileId" = c."id" AND t."date" = $6::date
     CROSS JOIN LATERAL (SELECT b.id IS NOT NULL AND EXISTS (
       SELECT 1 FROM "tiktok_page_snapshots" e WHERE e."profileId" = c."id" AND e."date" < $6::date) AS known) k
     ON CONFLICT ("profileId", "date") DO UPDATE
       SET "recordedAt" = excluded."recordedAt", "adsCount" = excluded."adsCount", "organicCount" = excluded."organicCount",
           "totalTikToks" = excluded."totalTikToks", "dailyViews" = excluded."dailyViews", "dailyLikes" = excluded."dailyLikes",
           "dailyFollowers" = excluded."dailyFollowers"`,
    [
      fetched, previous.map((p) => p.id), previous.map((p) => p.views), previous.map((p) => p.likes), previous.map((p) => p.followers),
      context.day.toISOString().slice(0, 10), context.asOf.toISOString(), context.day.toISOString(),
      new Date(context.day.getTime() + 86_400_000).toISOString(),
    ],
  );
}

export const tiktokAds: Format<TikTokAd> = {
  records(document) {
    if (Array.isArray(document)) return document;
    if (!isObject(document)) return 'not an ad query response: expected { "data": { "ads": [ … ] } }';
    const data = document.data;
    if (isObject(data) && Array.isArray(data.ads)) return data.ads;
    if (isObject(data) && isObject(data.ad)) return [data];
    if (Array.isArray(document.ads)) return document.ads;
    const error = document.error;
    if (isObject(error) && error.code !== undefined && error.code !== 'ok') return `the file is an API error response: ${String(error.message ?? error.code)}`;
    return 'not an ad query response: expected { "data": { "ads": [ … ] } }';
  },
  parse: parseTikTokAd,
  key: (ad) => ad.id,
  apply: applyTikTokAds,
};

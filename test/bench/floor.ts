import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { DEFAULT_CPM, estimatedSpend } from '../../src/schema/ads/types.js';
import { AD_COLUMNS, summary } from './floor-ads.js';
import { absoluteMedia, AUTH, authorised, iso, pool, type Key, type Route, type Row } from './floor-common.js';
import { discoveryRoutes } from './floor-discovery.js';
import { marketRoutes } from './floor-market.js';
import { shopRoutes } from './floor-shops.js';
import { workspaceRoutes } from './floor-workspace.js';

// The bench's floor: a minimal node:http + pg server answering the benchmarked routes with the same JSON
// as the project, each with ONE SQL statement (authentication folded into the data query). What the
// project does beyond this is its overhead. Not a product: no validation beyond what the bench sends.
// The routes of the later scenarios (S7 on) are in floor-discovery.ts, floor-shops.ts,
// floor-market.ts (emails, products) and floor-workspace.ts.

// The project's text search bounds (src/schema/shared/list.ts): candidates ranked, total counted up to a cap.
const CANDIDATES = 250;
const TOTAL_CAP = 1_000;

function keyOf(req: IncomingMessage): Key | null {
  const key = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
  const prefix = key ? /^mik_([A-Za-z0-9]{12})_/.exec(key)?.[1] : undefined;
  return key && prefix ? { key, prefix } : null;
}

/** The ad's provenance as the API shows it: the source (demo when none), the first fetch, the latest (never before the first). */
function provenance(source: string | null, first: string | null, last: Date | null) {
  const firstAt = first === null ? null : new Date(first);
  const lastAt = last === null || (firstAt !== null && last < firstAt) ? firstAt : last;
  return { source: source ?? 'demo', firstFetchedAt: firstAt && firstAt.toISOString(), lastFetchedAt: lastAt && lastAt.toISOString() };
}

const routes: Route[] = [
  [/^\/v1\/me$/, async (_m, _u, { key, prefix }) => {
    const { rows: [row] } = await pool.query(`WITH ${AUTH} SELECT to_jsonb(auth) AS auth FROM auth`, [prefix]);
    const auth = row?.auth ? { ...row.auth, keyHash: Buffer.from(row.auth.keyHash.slice(2), 'hex') } : null;
    if (!authorised(key, auth)) return null;
    return {
      credential: { id: auth.id, name: auth.name, description: auth.description, accessLevel: auth.accessLevel, expiresAt: iso(auth.expiresAt), createdAt: iso(auth.createdAt), lastUsedAt: iso(auth.lastUsedAt) },
      workspace: { id: auth.workspaceId, slug: auth.slug, name: auth.workspaceName, createdAt: iso(auth.workspaceCreatedAt) },
      delegatedUser: null,
    };
  }],
  [/^\/v1\/ads\/([^/]+)\/reach-history$/, async (m, url, { key, prefix }) => {
    const limit = Number(url.searchParams.get('limit') ?? 365);
    const { rows: [row] } = await pool.query(
      `WITH ${AUTH} SELECT (SELECT "keyHash" FROM auth) AS "keyHash", (SELECT access FROM auth) AS access,
         (SELECT json_agg(json_build_object('date', to_char(d."date", 'YYYY-MM-DD'), 'reach', d."reach") ORDER BY d."date")
          FROM (SELECT "date", "reach" FROM "ad_reach_days" WHERE "adId" = $2 ORDER BY "date" DESC LIMIT $3) d) AS points`,
      [prefix, m[1], limit],
    );
    if (!authorised(key, row.keyHash ? row : null)) return null;
    return { data: row.points ?? [] };
  }],
  [/^\/v1\/ads\/([^/]+)$/, async (m, _u, { key, prefix }) => {
    const { rows: [row] } = await pool.query(
      `WITH ${AUTH} SELECT (SELECT "keyHash" FROM auth) AS "keyHash", (SELECT access FROM auth) AS access, ${AD_COLUMNS},
         to_jsonb(t) AS transcript, to_jsonb(h) AS hook,
         (SELECT coalesce(json_agg(json_build_object('shopId', s."id", 'domain', s."domain", 'name', s."name", 'isPrimary', l."isPrimary", 'traffic', s."monthlyVisits", 'categories', s."categories") ORDER BY l."isPrimary" DESC, l."shopId"), '[]')
          FROM "advertiser_shops" l JOIN "shops" s ON s."id" = l."shopId" WHERE l."advertiserId" = a."advertiserId") AS shops,
         (SELECT coalesce(json_agg(json_build_object('date', to_char(d."date", 'YYYY-MM-DD'), 'likes', d."facebookLikes", 'followers', d."instagramFollowers", 'impressions', d."totalImpressions") ORDER BY d."date"), '[]')
          FROM "advertiser_metric_days" d WHERE d."advertiserId" = a."advertiserId") AS days,
         (SELECT max(r."fetchedAt") FROM "ad_reach_days" r WHERE r."adId" = a."id") AS "lastFetchedAt"
       FROM "ads" a JOIN "advertisers" v ON v."id" = a."advertiserId" LEFT JOIN "ad_transcripts" t ON t."adId" = a."id" LEFT JOIN "ad_hooks" h ON h."adId" = a."id"
       WHERE a."id" = $2`,
      [prefix, m[1]],
    );
    if (!row || !authorised(key, row)) return null;
    const hook = row.hook && { text: row.hook.text, source: row.hook.source, sourceDescription: row.hook.sourceDescription, isFallback: row.hook.isFallback };
    return {
      data: {
        ...summary(row.ad, row.advertiser, row.transcriptText),
        transcript: row.transcript && { language: row.transcript.language, languageConfidence: row.transcript.languageConfidence, segments: row.transcript.segments, fullText: row.transcript.fullText },
        creativeAnalysis: { hook: hook ?? null },
        links: { adLibraryUrl: `https://www.facebook.com/ads/library/?id=${row.ad.id.replace(/^[a-z]+_/, '')}`, landingPageUrl: row.ad.landingPageUrl },
        shops: row.shops,
        pageAnalytics: {
          impressionsHistory: row.days.map((d: Row) => ({ date: d.date, totalImpressions: Number(d.impressions) })),
          facebookLikesHistory: row.days.map((d: Row) => ({ date: d.date, value: d.likes })),
          instagramFollowersHistory: row.days.map((d: Row) => ({ date: d.date, value: d.followers })),
        },
        provenance: provenance(row.ad.fetchedFrom, row.ad.firstFetchedAt, row.lastFetchedAt),
      },
    };
  }],
  [/^\/v1\/ads$/, async (_m, url, { key, prefix }) => {
    // The project's text search semantics (src/schema/shared/list.ts): the 250 highest-reach matches
    // ranked by text rank, the total counted up to 1,000. The bench asks for first pages only (inside the candidates).
    const search = url.searchParams.get('search') ?? '';
    const limit = Number(url.searchParams.get('limit') ?? 25);
    const page = Number(url.searchParams.get('page') ?? 1);
    const { rows } = await pool.query(
      // The query is written inline (not in a CTE), so that the planner sees how common its words are.
      `WITH ${AUTH},
         candidates AS MATERIALIZED (SELECT a."id", a."reach", ts_rank(a."searchText", websearch_to_tsquery('simple', $2)) AS rank FROM "ads" a
           WHERE a."isGroupLead" AND a."searchText" @@ websearch_to_tsquery('simple', $2) ORDER BY a."reach" DESC, a."id" ASC LIMIT ${CANDIDATES}),
         page AS (SELECT "id", rank, "reach" FROM candidates ORDER BY rank DESC, "reach" DESC, "id" ASC LIMIT $3 OFFSET $4)
       SELECT (SELECT "keyHash" FROM auth) AS "keyHash", (SELECT access FROM auth) AS access,
         (SELECT count(*)::int FROM (SELECT 1 FROM "ads" a WHERE a."isGroupLead" AND a."searchText" @@ websearch_to_tsquery('simple', $2) LIMIT ${TOTAL_CAP + 1}) m) AS total, ${AD_COLUMNS}
       FROM page p JOIN "ads" a ON a."id" = p."id" JOIN "advertisers" v ON v."id" = a."advertiserId" LEFT JOIN "ad_transcripts" t ON t."adId" = a."id"
       ORDER BY p.rank DESC, p."reach" DESC, p."id" ASC`,
      [prefix, search, limit, (page - 1) * limit],
    );
    if (rows.length && !authorised(key, rows[0])) return null;
    const counted: number = rows[0]?.total ?? 0;
    // As src/schema/shared/list.ts boundedTotal: exact under the cap or on a short page, else a lower bound.
    const exact = counted <= TOTAL_CAP || (rows.length > 0 && rows.length < limit);
    const total = counted <= TOTAL_CAP ? counted : exact ? (page - 1) * limit + rows.length : Math.max(TOTAL_CAP, rows.length ? (page - 1) * limit + rows.length : 0);
    return {
      data: rows.map((r) => summary(r.ad, r.advertiser, r.transcriptText)),
      pagination: { page, limit, total, totalPages: Math.ceil(total / limit) },
      meta: { totalRelation: exact ? 'eq' : 'gte' },
    };
  }],
  ...discoveryRoutes,
  ...shopRoutes,
  ...marketRoutes,
  ...workspaceRoutes,
];

async function readBody(req: IncomingMessage): Promise<Row> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Row) : {};
}

// Issue #20: a brandtracker's overview (default sections) and testing page 1, each in one statement with the
// authentication, answering what the project answers.

const DAYS_SQL = `floor(extract(epoch FROM (CASE WHEN a."status" = 'active' THEN now() ELSE a."lastSeenAt" END) - greatest(a."firstSeenAt", timestamptz '2018-01-01')) / 86400)::int`;
const BRAND = `bt AS (SELECT b."facebookPageId" AS page FROM auth JOIN "brandtracker_links" l ON l."workspaceId" = auth."workspaceId" AND l."isActive" AND l."brandtrackerId" = $2::uuid
  JOIN "brandtrackers" b ON b."id" = l."brandtrackerId")`;
const AD_JSON = `json_build_object('ad', to_jsonb(a) - 'searchText', 'advertiser', to_jsonb(v) - 'searchName', 'transcriptText', t."fullText")`;
const AD_JOINS = `JOIN "ads" a ON a."id" = x."id" JOIN "advertisers" v ON v."id" = a."advertiserId" LEFT JOIN "ad_transcripts" t ON t."adId" = a."id"`;
const DAY = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const pagination = (page: number, limit: number, total: number) => ({ page, limit, total: Number(total), totalPages: Math.ceil(Number(total) / limit) });
const summaryOf = (r: Row) => summary(r.ad, r.advertiser, r.transcriptText);

async function authorisedRow(key: { key: string; prefix: string }, sql: string, params: unknown[]): Promise<Row | null> {
  const { rows: [row] } = await pool.query(`WITH ${AUTH}, ${sql}`, [key.prefix, ...params]);
  const auth = row?.keyHash ? { access: row.access, keyHash: row.keyHash } : null;
  return authorised(key.key, auth) && row.found ? row : null;
}

routes.push(
  [/^\/v1\/brandtrackers\/([^/]+)\/overview$/, async (m, _u, key) => {
    const end = Math.floor(Date.now() / DAY) * DAY;
    const start = end - 365 * DAY;
    const row = await authorisedRow(key, `${BRAND},
      b AS MATERIALIZED (SELECT a.* FROM "ads" a WHERE a."advertiserId" = (SELECT page FROM bt)),
      r AS MATERIALIZED (SELECT r."date", r."reach" - lag(r."reach", 1, 0::bigint) OVER w AS level,
          CASE WHEN lag(r."reach") OVER w IS NULL AND r."date" <> (b."firstSeenAt" AT TIME ZONE 'UTC')::date THEN 0 ELSE r."reach" - lag(r."reach", 1, 0::bigint) OVER w END AS delta
        FROM b JOIN "ad_reach_days" r ON r."adId" = b."id" WHERE r."date" <= $4::date WINDOW w AS (PARTITION BY r."adId" ORDER BY r."date")),
      lp AS (SELECT a."landingPageId" AS k, count(*)::int AS n, max(${DAYS_SQL}) AS longest, coalesce(sum(a."reach"), 0)::bigint AS imp
        FROM b a WHERE a."status" = 'active' AND a."landingPageId" IS NOT NULL GROUP BY 1),
      top AS (SELECT a."id", ${DAYS_SQL} AS days, a."aggregatedReach", a."duplicates", a."currentRank" FROM b a WHERE a."isGroupLead" AND a."status" = 'active')
      SELECT (SELECT "keyHash" FROM auth) AS "keyHash", (SELECT access FROM auth) AS access, EXISTS (SELECT 1 FROM bt) AS found,
        (SELECT json_object_agg(d, n) FROM (SELECT to_char((a."firstSeenAt" AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') d, count(*) n FROM b a
          WHERE a."firstSeenAt" >= $3::date AND a."firstSeenAt" < $4::date + 1 GROUP BY 1) x) AS launched,
        (SELECT json_object_agg(to_char(d, 'YYYY-MM-DD'), n) FROM (SELECT d, count(a."id") n FROM generate_series($3::date, $4::date, interval '1 day') d
          LEFT JOIN b a ON (a."firstSeenAt" AT TIME ZONE 'UTC')::date <= d AND (a."status" = 'active' OR (a."lastSeenAt" AT TIME ZONE 'UTC')::date >= d) GROUP BY 1) x) AS live,
        (SELECT json_object_agg(d, json_build_object('i', i, 'l', l)) FROM (SELECT to_char("date", 'YYYY-MM-DD') d, sum(delta) i, sum(level) l
          FROM r WHERE "date" >= $3::date GROUP BY 1) x) AS reach,
        (SELECT coalesce(sum(level), 0) FROM r WHERE "date" < $3::date) AS before,
        (SELECT json_build_object('image', count(*) FILTER (WHERE "mediaType" = 'image'), 'video', count(*) FILTER (WHERE "mediaType" = 'video'),
          'dco', count(*) FILTER (WHERE "mediaType" = 'dco'), 'other', count(*) FILTER (WHERE "mediaType" IN ('carousel', 'unknown'))) FROM b WHERE "isGroupLead" AND "status" = 'active') AS mix,
        (SELECT count(*) FROM lp) AS "lpTotal",
        (SELECT json_agg(json_build_object('landingPage', l."url", 'usageCount', x.n, 'longestRunning', x.longest, 'totalImpressions', x.imp,
            'technologies', (SELECT coalesce(json_agg(json_build_object('id', tt."id", 'name', tt."name", 'iconUrl', tt."iconUrl") ORDER BY tt."name", tt."id"), '[]')
              FROM "landing_page_technologies" lt JOIN "technologies" tt ON tt."id" = lt."technologyId" WHERE lt."landingPageId" = l."id"),
            'screenshots', json_build_object('desktop', l."screenshotDesktopUrl", 'mobile', l."screenshotMobileUrl", 'head', l."screenshotHeadUrl")) ORDER BY x.n DESC, x.k::text)
          FROM (SELECT * FROM lp ORDER BY n DESC, k::text LIMIT 5) x JOIN "landing_pages" l ON l."id" = x.k) AS lps,
        (SELECT count(*) FROM top) AS "topTotal",
        (SELECT json_agg(json_build_object('row', ${AD_JSON}, 'metrics', json_build_object('totalReach', x."aggregatedReach", 'duplicateCount', x."duplicates", 'daysRunning', x.days, 'currentRank', x."currentRank"))
            ORDER BY x.days DESC, x."id") FROM (SELECT * FROM top ORDER BY days DESC, "id" LIMIT 5) x ${AD_JOINS}) AS tops,
        (SELECT count(*) FROM b WHERE "isGroupLead") AS "previewTotal",
        (SELECT json_agg(${AD_JSON} ORDER BY x."firstSeenAt" DESC, x."id") FROM (SELECT "id", "firstSeenAt" FROM b WHERE "isGroupLead" ORDER BY "firstSeenAt" DESC, "id" LIMIT 10) x ${AD_JOINS}) AS previews`,
      [m[1], day(start), day(end)]);
    if (!row) return null;
    const launched: Row = row.launched ?? {};
    const live: Row = row.live ?? {};
    const reach: Row = row.reach ?? {};
    let cumulative = Number(row.before);
    const dates = Array.from({ length: (end - start) / DAY + 1 }, (_, i) => day(start + i * DAY));
    // As src/schema/brandtracker-analytics/service/series.ts: impressions are each ad's daily reach increase (none on a first
    // recorded day that is not its launch day), the running total the latest reach of every ad.
    const spend = dates.map((date) => {
      const impressions = Number(reach[date]?.i ?? 0);
      cumulative += Number(reach[date]?.l ?? 0);
      return { date, impressions, cumulativeImpressions: cumulative, estimatedSpend: estimatedSpend(impressions, DEFAULT_CPM) };
    });
    const mix = row.mix;
    return {
      data: {
        graph: {
          granularity: 'daily', dateRange: { startDate: day(start), endDate: day(end) }, adsLaunched: dates.map((date) => ({ date, count: Number(launched[date] ?? 0) })),
          liveAds: dates.map((date) => ({ date, count: Number(live[date] ?? 0) })), euImpressionsSpend: spend, cpm: DEFAULT_CPM,
        },
        mediaMix: { activeAds: mix.image + mix.video + mix.dco + mix.other, formatCount: mix },
        topLandingPages: { data: (row.lps ?? []).map((lp: Row) => ({ ...lp, totalImpressions: Number(lp.totalImpressions) })), pagination: pagination(1, 5, row.lpTotal) },
        topAds: { data: (row.tops ?? []).map((r: Row) => ({ ad: summaryOf(r.row), metrics: { ...r.metrics, totalReach: Number(r.metrics.totalReach) } })), pagination: pagination(1, 5, row.topTotal) },
        adsPreview: { data: (row.previews ?? []).map(summaryOf), pagination: pagination(1, 10, row.previewTotal) },
      },
      meta: { requestedSnapshotDate: null, resolvedSnapshotDate: null, dataFreshnessLagDays: null, periodNote: 'Live data.' },
    };
  }],
  [/^\/v1\/brandtrackers\/([^/]+)\/testing$/, async (m, _u, key) => {
    const row = await authorisedRow(key, `${BRAND},
      m AS MATERIALIZED (SELECT a."id", (a."firstSeenAt" AT TIME ZONE 'UTC')::date AS sd, a."reach", ${DAYS_SQL} AS days, a."status" = 'active' AS running
        FROM "ads" a WHERE a."advertiserId" = (SELECT page FROM bt) AND a."platform" = 'facebook' AND a."mediaUrl" IS NOT NULL AND a."isGroupLead"),
      g AS (SELECT sd, count(*)::int AS total, count(*) FILTER (WHERE running)::int AS run, min("reach") AS rmin, round(avg("reach"), 2)::float8 AS ravg, max("reach") AS rmax,
        sum("reach")::bigint AS rtot, min(days) AS dmin, round(avg(days), 2)::float8 AS davg, max(days) AS dmax, (array_agg("id" ORDER BY "reach" DESC, days DESC, "id"))[1:20] AS ids
        FROM m GROUP BY 1),
      p AS (SELECT * FROM g ORDER BY sd DESC LIMIT 25)
      SELECT (SELECT "keyHash" FROM auth) AS "keyHash", (SELECT access FROM auth) AS access, EXISTS (SELECT 1 FROM bt) AS found, (SELECT count(*) FROM g) AS total,
        (SELECT json_agg(json_build_object('sd', to_char(p.sd, 'YYYY-MM-DD'), 'g', to_jsonb(p) - 'ids' - 'sd',
          'ads', (SELECT json_agg(${AD_JSON} ORDER BY array_position(p.ids, x."id")) FROM (SELECT unnest(p.ids) AS "id") x ${AD_JOINS})) ORDER BY p.sd DESC) FROM p) AS batches`,
      [m[1]]);
    if (!row) return null;
    const today = Math.floor(Date.now() / DAY) * DAY;
    const data = (row.batches ?? []).map(({ sd, g, ads }: Row) => ({
      startDate: sd, ads: ads.map(summaryOf), adsReturned: ads.length, maxAdsPerBatch: 20, adsTruncated: g.total > ads.length, runningCount: g.run,
      isWinner: g.total >= 2 && g.run >= 1 && g.run < g.total && today - Date.parse(`${sd}T00:00:00Z`) >= 7 * DAY,
      stats: {
        reach: { min: Number(g.rmin), avg: g.ravg, max: Number(g.rmax), total: Number(g.rtot) }, daysRunning: { min: g.dmin, avg: g.davg, max: g.dmax },
        activeCount: g.run, totalCount: g.total, bestPerformerId: ads[0]?.ad.id,
      },
    }));
    return { data, pagination: pagination(1, 25, row.total) };
  }],
);

async function handle(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://floor');
  const requestId = randomUUID();
  const send = (status: number, body: Row) => {
    const text = JSON.stringify({ requestId, ...body }, absoluteMedia);
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId, 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };
  const key = keyOf(req);
  if (!key) return send(401, { error: { code: 'missing_api_key', message: 'missing', requestId } });
  for (const [pattern, route] of routes) {
    const match = pattern.exec(url.pathname);
    if (!match) continue;
    const body = await route(match, url, key, req.method === 'POST' ? await readBody(req) : {});
    return body ? send(200, body) : send(401, { error: { code: 'invalid_api_key', message: 'invalid', requestId } });
  }
  send(404, { error: { code: 'not_found', message: 'not found', requestId } });
}

const server = createServer((req, res) => void handle(req, res).catch((error) => {
  res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ error: { code: 'internal', message: String(error) } }));
}));
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  process.send?.({ ready: typeof address === 'object' && address ? address.port : 0 });
});

import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import pg from 'pg';
import { daysRunning, estimatedSpend, DEFAULT_CPM } from '../../src/schema/ads/figures.js';

// The bench's floor: a minimal node:http + pg server answering the benchmarked routes with the same JSON
// as the project, each with ONE SQL statement (authentication folded into the data query). What the
// project does beyond this is its overhead. Not a product: no validation beyond what the bench sends.

type Row = Record<string, any>;
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 8 });
const iso = (value: string | Date | null) => (value === null ? null : new Date(value).toISOString());
const num = (value: string | number | null) => (value === null ? null : Number(value));

const AUTH = `auth AS (
  SELECT c."id", c."keyHash", c."name", c."description", c."accessLevel", c."expiresAt", c."createdAt", c."lastUsedAt",
         w."id" AS "workspaceId", w."slug", w."name" AS "workspaceName", w."createdAt" AS "workspaceCreatedAt", x."status" AS access
  FROM "credentials" c JOIN "workspaces" w ON w."id" = c."workspaceId" LEFT JOIN "workspace_api_access" x ON x."workspaceId" = w."id"
  WHERE c."keyPrefix" = $1 AND c."deletedAt" IS NULL AND c."revokedAt" IS NULL)`;

function keyOf(req: IncomingMessage): { key: string; prefix: string } | null {
  const key = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
  const prefix = key ? /^mik_([A-Za-z0-9]{12})_/.exec(key)?.[1] : undefined;
  return key && prefix ? { key, prefix } : null;
}

function authorised(key: string, auth: Row | null): boolean {
  if (!auth || auth.access !== 'enabled') return false;
  const hash = createHash('sha256').update(key).digest();
  return timingSafeEqual(hash, auth.keyHash);
}

const AD_COLUMNS = `to_jsonb(a) - 'searchText' AS ad, to_jsonb(v) - 'searchName' AS advertiser, t."fullText" AS "transcriptText"`;

function summary(ad: Row, advertiser: Row, transcriptText: string | null): Row {
  const collated = ad.duplicates > 1;
  const out: Row = { id: ad.id };
  if (collated) out.collationId = ad.collationId;
  Object.assign(out, {
    platform: ad.platform,
    status: ad.status,
    createdAt: iso(ad.createdAt),
    firstSeenAt: iso(ad.firstSeenAt),
    lastSeenAt: collated && ad.status === 'active' ? null : iso(ad.lastSeenAt),
    daysRunning: daysRunning({ status: ad.status, firstSeenAt: new Date(ad.firstSeenAt), lastSeenAt: new Date(ad.lastSeenAt) }),
    media: { type: ad.mediaType, thumbnailUrl: ad.thumbnailUrl, mediaUrl: ad.mediaUrl },
    advertiser: {
      id: advertiser.id, name: advertiser.name, logoUrl: advertiser.logoUrl, facebookPageId: advertiser.id, liveAdsCount: advertiser.liveAdsCount,
      reach30d: num(advertiser.reach30d), totalReach: num(advertiser.totalReach), countriesCount: advertiser.countriesCount,
      facebookLikes: advertiser.facebookLikes, instagramFollowers: advertiser.instagramFollowers,
    },
    content: {
      title: ad.title, body: ad.body, transcript: transcriptText, callToAction: ad.callToAction, landingPageUrl: ad.landingPageUrl,
      landingPageDomain: ad.landingPageDomain, ctaDescription: ad.ctaDescription, ctaLinkDescription: ad.ctaLinkDescription,
    },
    metrics: {
      reach: num(ad.reach), aggregatedReach: num(ad.aggregatedReach), estimatedSpend: estimatedSpend(ad.reach, DEFAULT_CPM), duplicates: ad.duplicates,
      reachDelta1d: num(ad.reachDelta1d), reachDelta7d: num(ad.reachDelta7d), reachDelta30d: num(ad.reachDelta30d),
    },
    audience: { targetedCountries: ad.targetedCountries, mainCountry: ad.mainCountry, gender: ad.gender, ageMin: ad.ageMin, ageMax: ad.ageMax },
    rank: { positionInPage: ad.positionInPage, currentRank: ad.currentRank, rankDelta: ad.rankDelta, improvementPct: ad.improvementPct },
    flags: { isEuAd: ad.isEuAd, isLowReach: ad.isLowReach, isMediaChanged: ad.isMediaChanged, hasPartnerBadge: ad.hasPartnerBadge },
  });
  return out;
}

const routes: [RegExp, (match: RegExpExecArray, url: URL, key: { key: string; prefix: string }) => Promise<Row | null>][] = [
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
          FROM "advertiser_metric_days" d WHERE d."advertiserId" = a."advertiserId") AS days
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
      },
    };
  }],
  [/^\/v1\/ads$/, async (_m, url, { key, prefix }) => {
    const search = url.searchParams.get('search') ?? '';
    const limit = Number(url.searchParams.get('limit') ?? 25);
    const page = Number(url.searchParams.get('page') ?? 1);
    const { rows } = await pool.query(
      `WITH ${AUTH}, q AS (SELECT websearch_to_tsquery('simple', $2) AS q),
         matches AS (SELECT a."id", a."reach", ts_rank(a."searchText", q.q) AS rank FROM "ads" a, q WHERE a."isGroupLead" AND a."searchText" @@ q.q),
         page AS (SELECT "id", rank, "reach" FROM matches ORDER BY rank DESC, "reach" DESC, "id" ASC LIMIT $3 OFFSET $4)
       SELECT (SELECT "keyHash" FROM auth) AS "keyHash", (SELECT access FROM auth) AS access, (SELECT count(*)::int FROM matches) AS total, ${AD_COLUMNS}
       FROM page p JOIN "ads" a ON a."id" = p."id" JOIN "advertisers" v ON v."id" = a."advertiserId" LEFT JOIN "ad_transcripts" t ON t."adId" = a."id"
       ORDER BY p.rank DESC, p."reach" DESC, p."id" ASC`,
      [prefix, search, limit, (page - 1) * limit],
    );
    if (rows.length && !authorised(key, rows[0])) return null;
    const total = rows[0]?.total ?? 0;
    return { data: rows.map((r) => summary(r.ad, r.advertiser, r.transcriptText)), pagination: { page, limit, total, totalPages: Math.ceil(total / limit) } };
  }],
];

async function handle(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://floor');
  const requestId = randomUUID();
  const send = (status: number, body: Row) => {
    const text = JSON.stringify({ requestId, ...body });
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId, 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };
  const key = keyOf(req);
  if (!key) return send(401, { error: { code: 'missing_api_key', message: 'missing', requestId } });
  for (const [pattern, route] of routes) {
    const match = pattern.exec(url.pathname);
    if (!match) continue;
    const body = await route(match, url, key);
    return body ? send(200, body) : send(401, { error: { code: 'invalid_api_key', message: 'invalid', requestId } });
  }
  send(404, { error: { code: 'not_found', message: 'not found', requestId } });
}

const server = createServer((req, res) => void handle(req, res).catch((error) => {
  res.writeHead(500).end(String(error));
}));
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  process.send?.({ ready: typeof address === 'object' && address ? address.port : 0 });
});

import { AD_COLUMNS, summary } from './floor-ads.js';
import { AUTH, AUTH_COLUMNS, authedBody, authorised, ISO, pool, type Route, type Row } from './floor-common.js';

// The floor of S14–S15 (issue 19: GET /v1/workspace/top-ads and /hooks across the workspace's tracked brands) and
// S16 (issue 21: GET /v1/boards/{boardId}/items). One statement each, the workspace taken from the key. Both issue 19
// routes read what the project reads (migration 0021): each brand's first rows from its index, the totals and the
// hook groups precomputed per page.

/** The workspace's active brandtrackers (s), as the analytics read them. */
const SCOPE = `s AS (SELECT b."id" AS "brandtrackerId", coalesce(l."name", b."name") AS "name", b."facebookPageId" AS "pageId"
  FROM "brandtracker_links" l JOIN "brandtrackers" b ON b."id" = l."brandtrackerId" WHERE l."workspaceId" = (SELECT "workspaceId" FROM auth) AND l."isActive")`;
const DAYS = `floor(extract(epoch FROM (CASE WHEN a."status" = 'active' THEN now() ELSE a."lastSeenAt" END) - greatest(a."firstSeenAt", timestamptz '2018-01-01')) / 86400)`;
const pageOf = (url: URL) => {
  const limit = Number(url.searchParams.get('limit') ?? 20);
  const page = Number(url.searchParams.get('page') ?? 1);
  return { page, limit, offset: (page - 1) * limit };
};
const pagination = (page: { page: number; limit: number }, total: number) => ({ page: page.page, limit: page.limit, total, totalPages: Math.ceil(total / page.limit) });

export const workspaceRoutes: Route[] = [
  [/^\/v1\/workspace\/top-ads$/, async (_m, url, { key, prefix }) => {
    // The bench sends the default sort: current rank, then reach; active group leads only.
    const page = pageOf(url);
    const { rows } = await pool.query(
      `WITH ${AUTH}, ${SCOPE},
        m AS MATERIALIZED (SELECT s."brandtrackerId", s."name", s."pageId", b.* FROM s CROSS JOIN LATERAL (
          SELECT a."id", a."aggregatedReach", a."duplicates", ${DAYS}::int AS "daysRunning", a."currentRank", a."reach" FROM "ads" a
          WHERE a."advertiserId" = s."pageId" AND a."isGroupLead" AND a."status" = 'active'
          ORDER BY a."currentRank" ASC NULLS LAST, a."reach" DESC NULLS LAST, a."id" ASC LIMIT $4) b),
        page AS (SELECT * FROM m ORDER BY "currentRank" ASC NULLS LAST, "reach" DESC NULLS LAST, "id" ASC LIMIT $2 OFFSET $3)
      SELECT ${AUTH_COLUMNS}, (SELECT coalesce(sum((SELECT n."activeGroupLeads" FROM "advertiser_ad_counts" n WHERE n."advertiserId" = s."pageId" AND NOT n."euOnly")), 0)::int FROM s) AS total,
        p."brandtrackerId", p."name", p."pageId", p."aggregatedReach", p."duplicates", p."daysRunning", p."currentRank", ${AD_COLUMNS}
      FROM (SELECT 1) one LEFT JOIN (page p JOIN "ads" a ON a."id" = p."id" JOIN "advertisers" v ON v."id" = a."advertiserId" LEFT JOIN "ad_transcripts" t ON t."adId" = a."id") ON TRUE
      ORDER BY p."currentRank" ASC NULLS LAST, p."reach" DESC NULLS LAST, p."id" ASC`,
      [prefix, page.limit, page.offset, page.offset + page.limit],
    );
    if (!authorised(key, rows[0])) return null;
    const data = rows.filter((r) => r.ad).map((r: Row) => ({
      brandtracker: { id: r.brandtrackerId, name: r.name, facebookPageId: r.pageId },
      ad: summary(r.ad, r.advertiser, r.transcriptText),
      metrics: { totalReach: Number(r.aggregatedReach), duplicateCount: r.duplicates, daysRunning: r.daysRunning, currentRank: r.currentRank },
    }));
    return { data, pagination: pagination(page, rows[0].total), ...(data.length ? {} : { meta: { reason: 'no_matching_ads' } }) };
  }],
  [/^\/v1\/workspace\/hooks$/, async (_m, url, key) => {
    const page = pageOf(url);
    const body = await authedBody(key, `WITH ${AUTH}, ${SCOPE},
      g AS MATERIALIZED (SELECT s."brandtrackerId", c.* FROM s CROSS JOIN LATERAL (
          SELECT c."key", c."usageCount", greatest(c."inactiveLongestRunning", floor(extract(epoch FROM now() - c."activeSince") / 86400)::int) AS "longestRunning",
            c."totalImpressions", c."firstUsedAt", c."lastUsedAt", c."sampleAdId" FROM "advertiser_ad_groups" c
          WHERE c."advertiserId" = s."pageId" AND c."kind" = 'hook' AND NOT c."euOnly" ORDER BY c."usageCount" DESC, c."keyRank" LIMIT $4) c),
      page AS (SELECT *, row_number() OVER (ORDER BY "usageCount" DESC NULLS LAST, "brandtrackerId" ASC, "key" ASC) AS n FROM g ORDER BY n LIMIT $2 OFFSET $3)
      SELECT ${AUTH_COLUMNS}, json_build_object('total', (SELECT coalesce(sum((SELECT n."hookGroups" FROM "advertiser_ad_counts" n WHERE n."advertiserId" = s."pageId" AND NOT n."euOnly")), 0)::int FROM s), 'data', (SELECT coalesce(json_agg(json_build_object(
          'brandtracker', json_build_object('id', s."brandtrackerId", 'name', s."name", 'facebookPageId', s."pageId"),
          'hook', json_build_object('text', p."key", 'sampleAd', CASE WHEN sa."id" IS NULL THEN NULL ELSE json_build_object('adId', sa."id", 'mediaUrl', sa."mediaUrl",
            'thumbnailUrl', sa."thumbnailUrl", 'fullText', coalesce(tr."fullText", sa."body")) END),
          'metrics', json_build_object('usageCount', p."usageCount", 'longestRunning', p."longestRunning", 'totalImpressions', p."totalImpressions",
            'firstUsedAt', ${ISO('p."firstUsedAt"')}, 'lastUsedAt', ${ISO('p."lastUsedAt"')})) ORDER BY p.n), '[]')
        FROM page p JOIN s ON s."brandtrackerId" = p."brandtrackerId" LEFT JOIN "ads" sa ON sa."id" = p."sampleAdId" LEFT JOIN "ad_transcripts" tr ON tr."adId" = sa."id")) AS body`,
    [page.limit, page.offset, page.offset + page.limit]);
    return body && { data: body.data, pagination: pagination(page, body.total) };
  }],
  [/^\/v1\/boards\/([^/]+)\/items$/, async (m, url, key) => {
    // A board of the key's workspace, not archived, visible to the workspace (the bench's board is).
    const limit = Number(url.searchParams.get('limit') ?? 25);
    const page = Number(url.searchParams.get('page') ?? 1);
    const body = await authedBody(key, `WITH ${AUTH},
      board AS (SELECT b."id" FROM "boards" b WHERE b."id" = $2 AND b."workspaceId" = (SELECT "workspaceId" FROM auth) AND b."archivedAt" IS NULL)
      SELECT ${AUTH_COLUMNS}, json_build_object('total', (SELECT count(*)::int FROM "board_items" i WHERE i."boardId" = (SELECT "id" FROM board)),
        'data', (SELECT coalesce(json_agg(json_build_object('id', i."id", 'boardId', i."boardId", 'type', i."itemType",
            'targetId', coalesce(i."adId", i."shopId"::text, i."emailId"::text, i."productId", i."advertiserId", i."landingPageUrl"),
            'note', i."note", 'createdByUserId', i."createdByUserId", 'createdAt', ${ISO('i."createdAt"')}) ORDER BY i."createdAt" DESC, i."id" DESC), '[]')
          FROM (SELECT * FROM "board_items" i WHERE i."boardId" = (SELECT "id" FROM board) ORDER BY i."createdAt" DESC, i."id" DESC LIMIT $3 OFFSET $4) i)) AS body`,
    [m[1], limit, (page - 1) * limit]);
    return body && { data: body.data, pagination: { page, limit, total: body.total, totalPages: Math.ceil(body.total / limit) } };
  }],
];

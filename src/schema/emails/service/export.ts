import { Prisma } from '../../../generated/prisma/client.js';
import { isoJson, jsonNumber, jsonText } from '../../shared/json-rows.js';
import type { ExportRows } from '../../shared/list.js';
import { mediaUrlSql } from '../../shared/media-url.js';

// An email summary as REST shows it (EmailSummary, types.ts, the route's whole selection), written by PostgreSQL for
// an export read in bulk (ExportRows, shared/list.ts). test/exports/bulk-lists.test.ts compares an export with the
// route's pages walked to the end.

const sql = Prisma.sql;

/** The preview's length in UTF-16 code units (types.ts: body.slice(0, PREVIEW_LENGTH)). */
const PREVIEW_LENGTH = 200;

/**
 * JavaScript's body.slice(0, PREVIEW_LENGTH) as JSON text: it counts UTF-16 code units, so a character beyond the
 * Basic Multilingual Plane counts two, and one cut in half leaves its high surrogate, which JSON.stringify writes as
 * `\udxxx`. Characters are counted only when the first PREVIEW_LENGTH hold such a character.
 */
const PREVIEW = sql`(CASE WHEN left(e."body", ${PREVIEW_LENGTH}) !~ '[\\U00010000-\\U0010FFFF]' THEN to_json(left(e."body", ${PREVIEW_LENGTH}))::text ELSE (
  SELECT (CASE WHEN z.h IS NULL THEN z.j ELSE left(z.j, -1) || '\\u' || z.h || '"' END)
  FROM (SELECT to_json(coalesce(string_agg(c.ch, '' ORDER BY c.o) FILTER (WHERE c.units <= ${PREVIEW_LENGTH}), ''))::text AS j,
      max(CASE WHEN c.units = ${PREVIEW_LENGTH + 1} AND ascii(c.ch) > 65535 THEN to_hex(55296 + ((ascii(c.ch) - 65536) >> 10)) END) AS h
    FROM (SELECT t.ch, t.o, sum(CASE WHEN ascii(t.ch) > 65535 THEN 2 ELSE 1 END) OVER (ORDER BY t.o) AS units
      FROM regexp_split_to_table(left(e."body", ${PREVIEW_LENGTH}), '') WITH ORDINALITY AS t(ch, o)) c) z) END)`;

function item(base: Prisma.Sql): Prisma.Sql {
  return jsonText([
    ['id', ...jsonNumber('e."id"')], ['sentAt', isoJson('e."sentAt"'), 'json'], ['campaignType', 'e."campaignType"'],
    ['classification', jsonText([
      ['promotionType', '(SELECT x."name" FROM "email_promotion_types" x WHERE x."id" = e."promotionTypeId")'], ['promotionTypeId', ...jsonNumber('e."promotionTypeId"')],
      ['category', '(SELECT x."name" FROM "email_categories" x WHERE x."id" = e."categoryId")'], ['categoryId', ...jsonNumber('e."categoryId"')],
      ['event', sql`(SELECT ${jsonText([['name', 'x."name"'], ['id', ...jsonNumber('x."id"')], ['category', 'x."category"']])} FROM "email_events" x WHERE x."id" = e."eventId")`, 'json'],
    ]), 'json'],
    ['content', jsonText([
      ['subject', 'e."subject"'], ['preheader', 'e."preheader"'], ['bodyPreview', PREVIEW, 'json'], ['bodyLength', ...jsonNumber('e."bodyLength"')],
      ['screenshotUrl', mediaUrlSql('e."screenshotUrl"', base)],
    ]), 'json'],
    ['shop', sql`(SELECT ${jsonText([['id', 'x."id"'], ['domain', 'x."domain"'], ['name', 'x."name"']])} FROM "shops" x WHERE x."id" = e."shopId")`, 'json'],
  ]);
}

/** How the emails lists' rows (`e`) are written in bulk for an export. */
export const EXPORTED_EMAILS: ExportRows = { from: sql`FROM "emails" e`, item };

import { open, rm, stat } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { AwsClient } from 'aws4fetch';
import { EXTENSIONS, exportSettings, s3Settings, type S3Settings } from './settings.js';
import type { ExportRow } from './store.js';

// Where finished export files are kept. The writer always writes to EXPORT_DIR (`<id>.<ext>.part`, renamed when
// whole: src/schema/exports/service/writers.ts); then:
// - without EXPORT_S3_BUCKET the file stays there, and the row's `fileName` is its name in EXPORT_DIR;
// - with it, the finished file is uploaded to the S3-compatible store (one PUT up to a part's size, else a multipart
//   upload of EXPORT_S3_PART_MB parts read from the file one at a time: memory stays one part whatever the size), the
//   local copy deleted, and `fileName` is `s3://<bucket>/<key>`. Requests are signed with AWS Signature V4 (aws4fetch,
//   payload unsigned as S3 allows over TLS or a private network). The file route reads a byte range of it with a
//   ranged GET, so `Range` requests cost what they ask for; a deleted or expired export's object is deleted.
// A location says which store holds it, so files kept before the configuration changed still read and delete.

const S3_SCHEME = 's3://';

/** The path in EXPORT_DIR of a file named `name` (a location kept in EXPORT_DIR is its name). */
const inDir = (name: string) => path.join(exportSettings().dir, path.basename(name));

/** The path in EXPORT_DIR the writer writes `row`'s file to (renamed from `.part` when whole). */
export function localPath(row: Pick<ExportRow, 'id' | 'format'>): string {
  return inDir(`${row.id}.${EXTENSIONS[row.format]}`);
}

type S3Object = { client: AwsClient; url: string; settings: S3Settings };

function s3Client(settings: S3Settings): AwsClient {
  // Three tries on a 5xx or 429 (aws4fetch's backoff), not its default ten: a down store fails the export in seconds.
  return new AwsClient({ accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey, service: 's3', region: settings.region, retries: 2 });
}

/** The URL of `key` in the bucket: path style (`<endpoint>/<bucket>/<key>`) or virtual-hosted (`<bucket>.<host>`). */
function objectUrl(settings: S3Settings, bucket: string, key: string): string {
  const encoded = key.split('/').map(encodeURIComponent).join('/');
  const endpoint = new URL(settings.endpoint);
  if (settings.pathStyle) return `${endpoint.origin}${endpoint.pathname.replace(/\/$/, '')}/${encodeURIComponent(bucket)}/${encoded}`;
  return `${endpoint.protocol}//${bucket}.${endpoint.host}${endpoint.pathname.replace(/\/$/, '')}/${encoded}`;
}

/** The object a location names, with a client for it (null: not an S3 location). Throws when S3 is not configured. */
function s3Object(location: string): S3Object | null {
  if (!location.startsWith(S3_SCHEME)) return null;
  const rest = location.slice(S3_SCHEME.length);
  const slash = rest.indexOf('/');
  const bucket = rest.slice(0, slash);
  const key = rest.slice(slash + 1);
  const settings = s3Settings();
  if (!settings) throw Object.assign(new Error(`the export store is misconfigured: ${location} is in an S3 store, but EXPORT_S3_BUCKET is not set`), { extensions: { code: 'service_unavailable' } });
  return { client: s3Client(settings), url: objectUrl(settings, bucket, key), settings };
}

async function s3Failure(response: Response, what: string): Promise<Error> {
  const body = await response.text().catch(() => '');
  const code = /<Code>([^<]*)<\/Code>/.exec(body)?.[1];
  // With a code: the export's row shows the message (the store's answer, not an internal error).
  return Object.assign(new Error(`the S3 store answered ${response.status}${code ? ` ${code}` : ''} to ${what}`), { extensions: { code: 'service_unavailable' } });
}

async function s3Request(object: S3Object, query: string, init: RequestInit, what: string): Promise<Response> {
  const response = await object.client.fetch(`${object.url}${query}`, init);
  // CompleteMultipartUpload may answer 200 with an error in its body.
  if (!response.ok) throw await s3Failure(response, what);
  return response;
}

/** Reads `bytes` bytes of the file from `offset` (fewer at its end). */
async function readPart(file: Awaited<ReturnType<typeof open>>, offset: number, bytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const buffer = new Uint8Array(bytes);
  let filled = 0;
  while (filled < bytes) {
    const { bytesRead } = await file.read(buffer, filled, bytes - filled, offset + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled === bytes ? buffer : buffer.subarray(0, filled);
}

async function upload(object: S3Object, file: string, size: number, contentType: string): Promise<void> {
  const partBytes = object.settings.partBytes;
  const handle = await open(file, 'r');
  try {
    if (size <= partBytes) {
      const body = await readPart(handle, 0, size);
      await s3Request(object, '', { method: 'PUT', body, headers: { 'Content-Type': contentType } }, 'PutObject');
      return;
    }
    const created = await (await s3Request(object, '?uploads', { method: 'POST', headers: { 'Content-Type': contentType } }, 'CreateMultipartUpload')).text();
    const uploadId = /<UploadId>([^<]+)<\/UploadId>/.exec(created)?.[1];
    if (!uploadId) throw new Error('exports: the S3 store gave no UploadId to CreateMultipartUpload');
    const upload = `uploadId=${encodeURIComponent(uploadId)}`;
    try {
      const etags: string[] = [];
      for (let offset = 0, part = 1; offset < size; offset += partBytes, part++) {
        const body = await readPart(handle, offset, Math.min(partBytes, size - offset));
        const answered = await s3Request(object, `?partNumber=${part}&${upload}`, { method: 'PUT', body }, `UploadPart ${part}`);
        const etag = answered.headers.get('etag');
        if (!etag) throw new Error(`exports: the S3 store gave no ETag to UploadPart ${part}`);
        etags.push(etag);
      }
      const parts = etags.map((etag, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${etag.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</ETag></Part>`).join('');
      const completed = await s3Request(object, `?${upload}`, {
        method: 'POST', body: `<CompleteMultipartUpload>${parts}</CompleteMultipartUpload>`, headers: { 'Content-Type': 'application/xml' },
      }, 'CompleteMultipartUpload');
      const answer = await completed.text();
      if (/<Error>/.test(answer)) throw new Error(`exports: the S3 store refused CompleteMultipartUpload (${/<Code>([^<]*)<\/Code>/.exec(answer)?.[1] ?? 'error'})`);
    } catch (error) {
      await object.client.fetch(`${object.url}?${upload}`, { method: 'DELETE' }).catch(() => undefined);
      throw error;
    }
  } finally {
    await handle.close();
  }
}

/**
 * Keeps the finished file of `row` (written whole at `localPath(row)`), returning its location for the row's
 * `fileName`: its name in EXPORT_DIR, or `s3://<bucket>/<key>` once uploaded (the local copy then deleted).
 */
export async function keepFile(row: Pick<ExportRow, 'id' | 'format'>, size: number, contentType: string): Promise<string> {
  const file = localPath(row);
  const settings = s3Settings();
  if (!settings) return path.basename(file);
  const key = `${settings.prefix}${path.basename(file)}`;
  const location = `${S3_SCHEME}${settings.bucket}/${key}`;
  await upload(s3Object(location)!, file, size, contentType);
  await rm(file, { force: true });
  return location;
}

/** A kept file that is not where its row says (deleted by hand, or by the store's own expiry). */
export class FileGone extends Error {}

/** Bytes `start`..`end` (inclusive) of the file at `location`, as a stream; FileGone when it is not there. */
export async function readFileRange(location: string, start: number, end: number): Promise<ReadableStream<Uint8Array>> {
  const object = s3Object(location);
  if (!object) {
    const file = inDir(location);
    const found = await stat(file).catch(() => null);
    if (!found?.isFile()) throw new FileGone(`exports: ${file} is missing`);
    return Readable.toWeb(createReadStream(file, { start, end })) as unknown as ReadableStream<Uint8Array>;
  }
  const response = await object.client.fetch(object.url, { method: 'GET', headers: { Range: `bytes=${start}-${end}` } });
  if (response.status === 404) throw new FileGone(`exports: ${location} is missing`);
  if (!response.ok) throw await s3Failure(response, 'GetObject');
  if (!response.body) throw new Error('exports: the S3 store answered GetObject without a body');
  return response.body;
}

/** Deletes the file at `location` (a missing one is no error). */
export async function removeFile(location: string | null): Promise<void> {
  if (!location) return;
  const object = s3Object(location);
  if (!object) return rm(inDir(location), { force: true });
  const response = await object.client.fetch(object.url, { method: 'DELETE' });
  if (!response.ok && response.status !== 404) throw await s3Failure(response, 'DeleteObject');
}

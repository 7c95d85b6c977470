import { createHash, createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A small S3-compatible store on 127.0.0.1 that speaks the parts of S3's REST protocol the export store uses, path
// style (`/<bucket>/<key>`): PutObject, CreateMultipartUpload / UploadPart / CompleteMultipartUpload /
// AbortMultipartUpload, GetObject (with `Range`), HeadObject, DeleteObject; errors as S3's XML (`<Error><Code>…`).
// Every request must carry a valid AWS Signature V4 (`Authorization: AWS4-HMAC-SHA256 …`), checked here from the
// specification (canonical request, string to sign, derived key) independently of the client's library; a wrong
// signature is 403 SignatureDoesNotMatch. Parts other than the last must be at least 5 MiB (EntityTooSmall).

export type S3Request = { method: string; key: string; query: Record<string, string>; range: string | null };

export type S3Fake = {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  objects: Map<string, Buffer>;
  requests: S3Request[];
  /** Signatures refused so far. */
  refused: number;
  close(): Promise<void>;
};

const MIN_PART = 5 * 1024 * 1024;
const rfc3986 = (value: string) => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

function xmlError(res: ServerResponse, status: number, code: string, message: string): void {
  res.writeHead(status, { 'content-type': 'application/xml' });
  res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`);
}

/** Whether the request's Signature V4 is the one `secret` makes. */
function signatureValid(req: IncomingMessage, rawPath: string, rawQuery: string, accessKeyId: string, secret: string): boolean {
  const auth = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(req.headers.authorization ?? '');
  if (!auth || auth[1] !== accessKeyId) return false;
  const [, , date, region, signedHeaders, signature] = auth as unknown as [string, string, string, string, string, string];
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  if (!amzDate.startsWith(date)) return false;
  const at = Date.parse(`${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`);
  if (!(Math.abs(Date.now() - at) < 15 * 60_000)) return false;
  const names = signedHeaders.split(';');
  if (!names.includes('host') || !names.includes('x-amz-date') || !names.includes('x-amz-content-sha256')) return false;
  const query = rawQuery
    ? rawQuery.split('&').filter(Boolean).map((pair) => {
        const [k, v = ''] = pair.split('=');
        return [rfc3986(decodeURIComponent(k!)), rfc3986(decodeURIComponent(v))] as const;
      }).sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0)).map(([k, v]) => `${k}=${v}`).join('&')
    : '';
  const headers = names.map((name) => `${name}:${String(req.headers[name] ?? '').trim().replace(/\s+/g, ' ')}\n`).join('');
  const canonical = [req.method, rawPath, query, headers, signedHeaders, String(req.headers['x-amz-content-sha256'])].join('\n');
  const scope = `${date}/${region}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), 's3'), 'aws4_request');
  return createHmac('sha256', key).update(toSign).digest('hex') === signature;
}

export async function startS3Fake(options: { bucket?: string; accessKeyId?: string; secretAccessKey?: string } = {}): Promise<S3Fake> {
  const bucket = options.bucket ?? 'mi-exports';
  const accessKeyId = options.accessKeyId ?? 'AKIAFAKEEXPORTS';
  const secretAccessKey = options.secretAccessKey ?? 'fake/secret+key';
  const objects = new Map<string, Buffer>();
  const uploads = new Map<string, { key: string; parts: Map<number, Buffer> }>();
  const fake = { refused: 0, requests: [] as S3Request[] };

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const [rawPath = '/', rawQuery = ''] = (req.url ?? '/').split('?');
    const query = Object.fromEntries(new URLSearchParams(rawQuery));
    const [, bucketName = '', ...keyParts] = rawPath.split('/');
    const key = keyParts.map(decodeURIComponent).join('/');
    fake.requests.push({ method: req.method!, key, query, range: req.headers.range ?? null });
    if (!signatureValid(req, rawPath, rawQuery, accessKeyId, secretAccessKey)) {
      fake.refused++;
      return xmlError(res, 403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.');
    }
    if (bucketName !== bucket) return xmlError(res, 404, 'NoSuchBucket', 'The specified bucket does not exist');
    const etag = (data: Buffer) => `"${createHash('md5').update(data).digest('hex')}"`;

    if (req.method === 'POST' && 'uploads' in query) {
      const uploadId = randomUUID();
      uploads.set(uploadId, { key, parts: new Map() });
      res.writeHead(200, { 'content-type': 'application/xml' });
      return res.end(`<?xml version="1.0" encoding="UTF-8"?><InitiateMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${key}</Key><UploadId>${uploadId}</UploadId></InitiateMultipartUploadResult>`);
    }
    if (query.uploadId !== undefined) {
      const upload = uploads.get(query.uploadId);
      if (!upload || upload.key !== key) return xmlError(res, 404, 'NoSuchUpload', 'The specified upload does not exist.');
      if (req.method === 'PUT') {
        upload.parts.set(Number(query.partNumber), body);
        res.writeHead(200, { etag: etag(body) });
        return res.end();
      }
      if (req.method === 'DELETE') {
        uploads.delete(query.uploadId);
        res.writeHead(204);
        return res.end();
      }
      if (req.method === 'POST') {
        const listed = [...body.toString('utf8').matchAll(/<Part><PartNumber>(\d+)<\/PartNumber><ETag>([^<]+)<\/ETag><\/Part>/g)].map((m) => ({ n: Number(m[1]), etag: m[2]!.replace(/&quot;/g, '"') }));
        const parts: Buffer[] = [];
        for (const [i, part] of listed.entries()) {
          const data = upload.parts.get(part.n);
          if (!data || etag(data) !== part.etag || part.n !== i + 1) return xmlError(res, 400, 'InvalidPart', 'One or more of the specified parts could not be found.');
          if (i < listed.length - 1 && data.length < MIN_PART) return xmlError(res, 400, 'EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed object size.');
          parts.push(data);
        }
        if (!parts.length) return xmlError(res, 400, 'MalformedXML', 'The XML you provided was not well-formed.');
        const whole = Buffer.concat(parts);
        objects.set(key, whole);
        uploads.delete(query.uploadId);
        res.writeHead(200, { 'content-type': 'application/xml' });
        return res.end(`<?xml version="1.0" encoding="UTF-8"?><CompleteMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${key}</Key><ETag>${etag(whole)}</ETag></CompleteMultipartUploadResult>`);
      }
    }
    if (req.method === 'PUT') {
      objects.set(key, body);
      res.writeHead(200, { etag: etag(body) });
      return res.end();
    }
    if (req.method === 'DELETE') {
      objects.delete(key);
      res.writeHead(204);
      return res.end();
    }
    if (req.method === 'GET' || req.method === 'HEAD') {
      const object = objects.get(key);
      if (!object) return xmlError(res, 404, 'NoSuchKey', 'The specified key does not exist.');
      const range = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
      if (range) {
        const start = Number(range[1]);
        const end = Math.min(Number(range[2]), object.length - 1);
        if (start >= object.length || end < start) return xmlError(res, 416, 'InvalidRange', 'The requested range is not satisfiable');
        res.writeHead(206, { 'content-length': end - start + 1, 'content-range': `bytes ${start}-${end}/${object.length}`, etag: etag(object) });
        return res.end(req.method === 'HEAD' ? undefined : object.subarray(start, end + 1));
      }
      res.writeHead(200, { 'content-length': object.length, etag: etag(object) });
      return res.end(req.method === 'HEAD' ? undefined : object);
    }
    return xmlError(res, 405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    accessKeyId,
    secretAccessKey,
    objects,
    get requests() {
      return fake.requests;
    },
    get refused() {
      return fake.refused;
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

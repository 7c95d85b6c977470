import { BodyRefused, readBodyBytes } from '../src/plugins/use-request-body-limit.js';

// multipart/form-data bodies (the image-search routes take an image upload): text fields become arguments as if
// they were query-string values, and an uploaded file (field `image`, or `file`) becomes the `image` argument,
// base64-encoded, as GraphQL clients send it. The body limit is the one every body has.

export const isMultipart = (request: Request) => /^multipart\/form-data\s*;/i.test(request.headers.get('content-type') ?? '');

export async function readMultipart(request: Request): Promise<{ body: Record<string, unknown> } | { error: string; refused?: true }> {
  let bytes: Buffer;
  try {
    bytes = await readBodyBytes(request);
  } catch (error) {
    if (error instanceof BodyRefused) return { error: error.expected, refused: true };
    throw error;
  }
  let form: FormData;
  try {
    form = await new Request('http://multipart.invalid/', { method: 'POST', headers: { 'content-type': request.headers.get('content-type')! }, body: new Uint8Array(bytes) }).formData();
  } catch {
    return { error: 'body must be valid multipart/form-data' };
  }
  const body: Record<string, unknown> = {};
  for (const [name, value] of form) {
    if (typeof value === 'string') {
      body[name] = name in body ? ([] as unknown[]).concat(body[name], value) : value;
    } else if (name === 'image' || name === 'file') {
      body.image = Buffer.from(await value.arrayBuffer()).toString('base64');
    }
  }
  return { body };
}

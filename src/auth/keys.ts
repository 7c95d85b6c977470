import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

// API key format: mik_<prefix>_<secret>. The prefix is a non-secret lookup handle stored in clear;
// only the SHA-256 of the whole key is stored.
const KEY_PATTERN = /^mik_([A-Za-z0-9]{12})_([A-Za-z0-9]{40})$/;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function randomToken(length: number): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  for (let i = 0; out.length < length && i < bytes.length; i++) {
    if (bytes[i] < 248) out += ALPHABET[bytes[i] % ALPHABET.length]; // 248 = 4 * 62: no modulo bias
  }
  return out.length === length ? out : randomToken(length);
}

export function hashKey(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}

export function generateKey(): { key: string; prefix: string; hash: Buffer } {
  const prefix = randomToken(12);
  const key = `mik_${prefix}_${randomToken(40)}`;
  return { key, prefix, hash: hashKey(key) };
}

/** The lookup prefix of a well-formed key, or null. */
export function keyPrefix(key: string): string | null {
  return KEY_PATTERN.exec(key)?.[1] ?? null;
}

export function keyMatches(key: string, storedHash: Uint8Array): boolean {
  const candidate = hashKey(key);
  return storedHash.length === candidate.length && timingSafeEqual(candidate, storedHash);
}

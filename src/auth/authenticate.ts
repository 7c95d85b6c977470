import { timingSafeEqual } from 'node:crypto';
import { apiError } from '../errors.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { cachedLookup } from './credential-cache.js';
import { findCredential, type StoredCredential } from './credential-store.js';
import { keyMatches, keyPrefix } from './keys.js';
import type { Principal } from './principal.js';
import { LastUsedRecorder } from './last-used.js';

const BEARER = /^Bearer[ ]+(\S+)\s*$/i;
const SEVERAL_BEARER = /^Bearer[ ]+\S/i;

export type Authenticator = (authorization: string | null) => Promise<Principal>;

/**
 * Resolves `Authorization: Bearer <key>` to a Principal, checking in the order the specification lists:
 * key present, known, not deleted, not revoked, not expired; workspace API access; delegated user.
 * Keys in any other header (x-api-key, …) are never read.
 */
export function createAuthenticator(
  prisma: PrismaClient,
  options: { lastUsedIntervalMs?: number; /** Keep credential lookups this long (0: never); see cachedLookup. */ cacheMs?: number } = {},
): Authenticator {
  const lastUsed = new LastUsedRecorder(prisma, options.lastUsedIntervalMs ?? 5000);
  const lookup = cachedLookup((prefix) => findCredential(prisma, prefix), options.cacheMs ?? 0);
  // The key that last matched a looked-up credential: while the lookup is cached, the same key is compared in
  // constant time instead of being hashed again (a SHA-256 per request was a percent of a small call's CPU).
  const verified = new WeakMap<StoredCredential, Buffer>();
  const matches = (key: string, credential: StoredCredential) => {
    const known = verified.get(credential);
    const given = Buffer.from(key);
    if (known && known.length === given.length && timingSafeEqual(known, given)) return true;
    if (!keyMatches(key, credential.keyHash)) return false;
    verified.set(credential, given);
    return true;
  };
  return async (authorization) => {
    const key = authorization ? BEARER.exec(authorization)?.[1] : undefined;
    if (!key) {
      // More than one value after Bearer (two Authorization headers arrive joined: "Bearer <key>, Bearer <other>") is a
      // malformed key, never the first of them.
      if (authorization && SEVERAL_BEARER.test(authorization)) throw apiError('invalid_api_key', 'The API key is not recognized: send exactly one Authorization: Bearer <api_key>.');
      throw apiError('missing_api_key', 'Provide an API key using Authorization: Bearer <api_key>.');
    }
    const prefix = keyPrefix(key);
    if (!prefix) throw apiError('invalid_api_key', 'The API key is not recognized.');

    let credential;
    try {
      credential = await lookup(prefix);
    } catch {
      throw apiError('auth_provider_unavailable', 'The credential store is temporarily unavailable. Retry with backoff.');
    }
    if (!credential || !matches(key, credential)) throw apiError('invalid_api_key', 'The API key is not recognized.');
    if (credential.deletedAt) throw apiError('credential_not_found', 'This API key was deleted.');
    if (credential.revokedAt) throw apiError('credential_revoked', 'This API key was revoked (rotated). Use its replacement.');
    const now = new Date();
    if (credential.expiresAt && credential.expiresAt <= now) throw apiError('credential_expired', 'This API key has expired.');

    const access = credential.access ?? 'disabled';
    if (access === 'disabled') throw apiError('workspace_public_api_disabled', 'The public API is not enabled for this workspace.');
    if (access === 'suspended') throw apiError('workspace_public_api_suspended', 'The public API is suspended for this workspace.');

    const user = credential.accessLevel === 'delegated_user' ? credential.delegatedUser : null;
    if (credential.accessLevel === 'delegated_user' && (!user || user.revokedAt)) {
      throw apiError('delegated_user_access_revoked', "The delegated user's access to this workspace was revoked.");
    }

    const { workspace } = credential;
    return {
      credential: {
        id: credential.id,
        name: credential.name,
        description: credential.description,
        accessLevel: credential.accessLevel,
        expiresAt: credential.expiresAt,
        createdAt: credential.createdAt,
        lastUsedAt: lastUsed.touch(credential.id, credential.lastUsedAt, now),
      },
      workspace: { id: workspace.id, slug: workspace.slug, name: workspace.name, createdAt: workspace.createdAt },
      delegatedUser: user ? { id: user.id, fullName: user.fullName, avatarUrl: user.avatarUrl, role: user.role } : null,
    };
  };
}

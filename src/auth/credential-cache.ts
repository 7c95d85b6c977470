import type { StoredCredential } from './credential-store.js';

type Lookup = (keyPrefix: string) => Promise<StoredCredential | null>;

/**
 * Keeps credential lookups (found or not) for `ttlMs`, so a client polling with one key costs no
 * authentication query per request. A revocation, expiry or access change therefore takes effect within
 * `ttlMs`. Concurrent misses for one key share one query; a failed query is not kept. At most `maxEntries`
 * keys are held (the oldest go first), so unknown keys cannot grow it without bound.
 */
export function cachedLookup(lookup: Lookup, ttlMs: number, maxEntries = 10_000): Lookup {
  if (ttlMs <= 0) return lookup;
  const entries = new Map<string, { value: Promise<StoredCredential | null>; expires: number }>();
  return (keyPrefix) => {
    const now = Date.now();
    const hit = entries.get(keyPrefix);
    if (hit && hit.expires > now) return hit.value;
    if (hit) entries.delete(keyPrefix);
    if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
    const value = lookup(keyPrefix);
    entries.set(keyPrefix, { value, expires: now + ttlMs });
    value.catch(() => {
      if (entries.get(keyPrefix)?.value === value) entries.delete(keyPrefix);
    });
    return value;
  };
}

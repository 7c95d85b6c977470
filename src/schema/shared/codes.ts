import { z } from 'zod';

// Country and language codes as the API takes them: ISO 3166-1 alpha-2 and ISO 639-1, with English names
// from the runtime's CLDR data (no list to keep up to date by hand).

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const pairs = [...LETTERS].flatMap((a) => [...LETTERS].map((b) => a + b));

/** ISO 639-1 code by lower-cased English name ("french" → "fr"), and the known codes. */
const LANGUAGE_CODES = new Map<string, string>();
const LANGUAGE_BY_NAME = new Map<string, string>();
for (const code of pairs) {
  const name = languageNames.of(code);
  if (!name || name.toLowerCase() === code) continue;
  LANGUAGE_CODES.set(code, name);
  LANGUAGE_BY_NAME.set(name.toLowerCase(), code);
}

/** Every region code the runtime names, with its English name: countryName for all of them at once. */
export const COUNTRY_NAMES: readonly (readonly [code: string, name: string])[] = pairs.flatMap((pair) => {
  const code = pair.toUpperCase();
  const name = regionNames.of(code);
  return name ? [[code, name] as const] : [];
});

export function countryName(code: string): string {
  return regionNames.of(code.toUpperCase()) ?? code.toUpperCase();
}

export function isCountryCode(code: string): boolean {
  const upper = code.trim().toUpperCase();
  return /^[A-Z]{2}$/.test(upper) && upper !== 'ZZ' && regionNames.of(upper) !== undefined;
}

/** An ISO 3166-1 alpha-2 code, upper-cased; the common alias UK reads as GB. */
export const countryCode = z
  .string()
  .refine(isCountryCode, '{name} must be ISO 3166-1 alpha-2 country codes')
  .transform((code) => (code.trim().toUpperCase() === 'UK' ? 'GB' : code.trim().toUpperCase()));

/** An ISO 639-1 code or an English language name, as its lower-case ISO 639-1 code. */
export const languageCode = z
  .string()
  .transform((value, ctx) => {
    const key = value.trim().toLowerCase();
    const code = LANGUAGE_CODES.has(key) ? key : LANGUAGE_BY_NAME.get(key);
    if (!code) {
      ctx.addIssue({ code: 'custom', message: '{name} must be ISO 639-1 codes or English language names' });
      return z.NEVER;
    }
    return code;
  });

/** The host of a domain or URL: "https://www.Shop.com/a" → "shop.com". */
export function hostOf(value: string): string {
  return value.trim().toLowerCase().replace(/^[a-z]+:\/\//, '').replace(/^www\./, '').split(/[/?#]/)[0];
}

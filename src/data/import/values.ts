// Reading one record of an imported file: every reader returns the value or throws a `BadRecord` naming the
// field, so a record is either fully understood or reported and skipped.

export class BadRecord extends Error {}

const fail = (reason: string): never => {
  throw new BadRecord(reason);
};

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A lower-case DNS host name with a real-looking top-level label (letters, or an IDN's punycode). */
const HOST_NAME = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;
export const isHostName = (host: string): boolean => HOST_NAME.test(host);

const absent = (value: unknown) => value === undefined || value === null;

/**
 * A 64-bit id as decimal text. The file's parser hands over integers too large for a double as strings
 * (see `parseJson`), so ids are never rounded through a JS number.
 */
export function idOf(value: unknown, field: string): string {
  if (absent(value) || value === '') return fail(`${field} is missing`);
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  if (typeof value === 'string' && /^\d{1,20}$/.test(value.trim())) return value.trim().replace(/^0+(?=\d)/, '');
  return fail(`${field} must be a numeric id, got ${JSON.stringify(value)}`);
}

export function optionalString(value: unknown, field: string): string | null {
  if (absent(value)) return null;
  if (typeof value !== 'string') return fail(`${field} must be a string, got ${typeof value}`);
  const text = value.trim();
  return text === '' ? null : text;
}

export function stringList(value: unknown, field: string): string[] {
  if (absent(value)) return [];
  if (!Array.isArray(value)) return fail(`${field} must be an array of strings`);
  return value.map((item, i) => {
    if (typeof item !== 'string') return fail(`${field}[${i}] must be a string, got ${typeof item}`);
    return item;
  });
}

/** A non-negative whole number (a number or decimal text) as a bigint; null when absent. */
export function optionalCount(value: unknown, field: string): bigint | null {
  if (absent(value)) return null;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === 'string' && /^\d{1,19}$/.test(value.trim())) return BigInt(value.trim());
  return fail(`${field} must be a non-negative whole number, got ${JSON.stringify(value)}`);
}

function calendarDate(year: number, month: number, day: number, field: string, raw: unknown): number {
  const time = Date.UTC(year, month - 1, day);
  const back = new Date(time);
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day || year < 1970) {
    fail(`${field} is not a valid date: ${JSON.stringify(raw)}`);
  }
  return time;
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/** An Ad Library time: `YYYY-MM-DD` or ISO 8601 with an optional offset (`+0000` included); UTC when none. */
export function optionalDateTime(value: unknown, field: string): Date | null {
  if (absent(value) || value === '') return null;
  if (typeof value !== 'string') return fail(`${field} must be a date string, got ${typeof value}`);
  const match = DATE_TIME.exec(value.trim());
  if (!match) return fail(`${field} is not a date: ${JSON.stringify(value)}`);
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '', zone = 'Z'] = match;
  let time = calendarDate(Number(y), Number(mo), Number(d), field, value);
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) fail(`${field} is not a valid time: ${JSON.stringify(value)}`);
  time += ((Number(h) * 60 + Number(mi)) * 60 + Number(s)) * 1000 + Math.round(Number(`0${fraction}`) * 1000);
  if (zone !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    const offset = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || '0');
    time -= (zone[0] === '+' ? 1 : -1) * offset * 60_000;
  }
  return new Date(time);
}

/** A TikTok date: `YYYYMMDD` as a number or text; midnight UTC. */
export function optionalYmd(value: unknown, field: string): Date | null {
  if (absent(value) || value === '') return null;
  const text = typeof value === 'number' && Number.isInteger(value) ? String(value) : typeof value === 'string' ? value.trim() : null;
  if (text === null) return fail(`${field} must be a YYYYMMDD date, got ${typeof value}`);
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(text);
  if (!match) return fail(`${field} is not a YYYYMMDD date: ${JSON.stringify(value)}`);
  return new Date(calendarDate(Number(match[1]), Number(match[2]), Number(match[3]), field, value));
}

/** TikTok audience figures are rounded text: `30K`, `1.2M`, `100K-1M` (the lower bound is kept), `<1K` (0), `10M+`. */
export function optionalAudience(value: unknown, field: string): bigint | null {
  if (absent(value) || value === '') return null;
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value) && value >= 0) return BigInt(value);
    return fail(`${field} must be a non-negative whole number, got ${value}`);
  }
  if (typeof value !== 'string') return fail(`${field} must be a number or text like "30K", got ${typeof value}`);
  const text = value.replace(/[\s,]/g, '').toUpperCase();
  if (/^<\d/.test(text)) return 0n;
  const match = /^(\d+(?:\.\d+)?)([KMB]?)\+?(?:-\d+(?:\.\d+)?[KMB]?\+?)?$/.exec(text);
  if (!match) return fail(`${field} is not an audience figure: ${JSON.stringify(value)}`);
  const scale = { '': 1, K: 1e3, M: 1e6, B: 1e9 }[match[2] as '' | 'K' | 'M' | 'B'];
  return BigInt(Math.round(Number(match[1]) * scale));
}

// ---------------------------------------------------------------------------
// Countries
// ---------------------------------------------------------------------------

/** EU member states and the UK: the countries whose ads carry Ad Library transparency data. */
export const EU_UK = new Set([
  'AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE', 'IT', 'LV', 'LT', 'LU', 'MT', 'NL',
  'PL', 'PT', 'RO', 'SK', 'SI', 'ES', 'SE', 'GB',
]);

let byName: Map<string, string> | null = null;
const NOT_COUNTRIES = new Set(['AA', 'EU', 'EZ', 'FX', 'UN', 'ZZ', 'AN', 'BU', 'CS', 'DD', 'NT', 'SU', 'TP', 'YU', 'ZR', 'UK', 'HV', 'DY', 'NH', 'RH', 'VD', 'YD']);

const fold = (name: string) =>
  name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/\band\b|\bthe\b/g, ' ').replace(/[^a-z]+/g, ' ').trim();

/** English country names (as ICU spells them, plus the older names Meta uses) to ISO 3166-1 alpha-2. */
function countryNames(): Map<string, string> {
  if (byName) return byName;
  byName = new Map();
  const names = new Intl.DisplayNames(['en'], { type: 'region' });
  const A = 65;
  for (let i = 0; i < 26; i++) {
    for (let j = 0; j < 26; j++) {
      const code = String.fromCharCode(A + i, A + j);
      let name: string | undefined;
      try {
        name = names.of(code);
      } catch {
        continue;
      }
      // Groupings and retired or user-assigned codes are not countries (ICU names FX "France" too).
      if (!name || name === code || NOT_COUNTRIES.has(code) || /^(?:Q[M-Z]|X[A-Z])$/.test(code)) continue;
      if (!byName.has(fold(name))) byName.set(fold(name), code);
    }
  }
  const aliases: Record<string, string> = {
    'Czech Republic': 'CZ', Turkey: 'TR', 'United States of America': 'US', USA: 'US', UK: 'GB', 'Great Britain': 'GB',
    Macedonia: 'MK', 'Republic of Ireland': 'IE', Holland: 'NL', 'South Korea': 'KR', Russia: 'RU', 'Ivory Coast': 'CI',
    Swaziland: 'SZ', Burma: 'MM', Myanmar: 'MM', 'Cape Verde': 'CV', 'Vatican City': 'VA', 'Hong Kong': 'HK', Macau: 'MO',
    'Democratic Republic of the Congo': 'CD', 'Republic of the Congo': 'CG', Congo: 'CG', 'Saint Kitts and Nevis': 'KN',
    'Saint Lucia': 'LC', 'Saint Vincent and the Grenadines': 'VC', 'Palestinian Territories': 'PS', 'East Timor': 'TL',
  };
  for (const [name, code] of Object.entries(aliases)) byName.set(fold(name), code);
  return byName;
}

/** The ISO code of a country given by code or English name; null when it is neither. */
export function countryCode(value: string): string | null {
  const text = value.trim();
  if (/^[A-Za-z]{2}$/.test(text)) return text.toUpperCase() === 'UK' ? 'GB' : text.toUpperCase();
  return countryNames().get(fold(text)) ?? null;
}

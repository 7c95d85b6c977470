// JSON with 64-bit integers: the Ad Library and TikTok hand out ids as JSON numbers larger than a double
// holds exactly (TikTok's `"id": 7301234567890123456`). `parseJson` rewrites every integer literal of 16 or
// more digits into a string before `JSON.parse`, so such ids arrive as exact decimal text.

const LONG_INTEGER = 16;

function quoteLongIntegers(text: string): string {
  let out = '';
  let last = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 92 /* \ */) i += 2;
        else if (d === 34) break;
        else i++;
      }
      i++;
      continue;
    }
    if (c === 45 /* - */ || (c >= 48 && c <= 57)) {
      const start = i;
      if (c === 45) i++;
      const digitsStart = i;
      while (i < n && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) i++;
      const digits = i - digitsStart;
      const next = text[i];
      const isInteger = next !== '.' && next !== 'e' && next !== 'E';
      if (isInteger && digits >= LONG_INTEGER) {
        out += text.slice(last, start) + `"${text.slice(start, i)}"`;
        last = i;
      }
      // skip the rest of a non-integer number
      while (i < n && /[0-9.eE+-]/.test(text[i])) i++;
      continue;
    }
    i++;
  }
  return last === 0 ? text : out + text.slice(last);
}

/** `JSON.parse` that keeps integers of 16 or more digits as exact decimal strings. */
export function parseJson(text: string): unknown {
  return JSON.parse(quoteLongIntegers(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text));
}

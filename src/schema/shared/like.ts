/** `text` as literal characters inside a LIKE/ILIKE pattern: `\`, `%` and `_` escaped (PostgreSQL's default escape is `\`). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, '\\$&');
}

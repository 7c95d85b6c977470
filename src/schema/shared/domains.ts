import { Prisma } from '../../generated/prisma/client.js';
import { escapeLike } from './like.js';

/**
 * `column` is `host` or one of its subdomains ("shop.example.com" is on "example.com"; "myexample.com" is
 * not). Written on the reversed name, which the reversed-domain indexes of migration 0009 answer as a range.
 */
export function onDomain(column: Prisma.Sql, host: string): Prisma.Sql {
  const reversed = [...host].reverse().join('');
  return Prisma.sql`(reverse(${column}) = ${reversed} OR reverse(${column}) LIKE ${`${escapeLike(reversed)}.%`})`;
}

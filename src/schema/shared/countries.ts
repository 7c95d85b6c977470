import { z } from 'zod';
import { builder } from '../builder.js';
import { countryCode } from './codes.js';

/** A list of ISO 3166-1 alpha-2 codes (strict: `XX` is a 400; `UK` reads as GB). */
export const countries = z.array(countryCode).max(250);

export type CountryFilter = { include?: string[] | null; exclude?: string[] | null };

/** An `{ include[], exclude[] }` input of country codes; `name` and `description` say what the countries are of. */
export function countryFilterInput(name: string, description: string) {
  return builder.inputType(name, {
    description,
    fields: (t) => ({
      include: t.stringList({ validate: countries }),
      exclude: t.stringList({ validate: countries }),
    }),
  });
}

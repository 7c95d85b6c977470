import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { isSourceName, SOURCE_NAMES, SOURCES } from '../sources/index.js';

// The collection schedules: which source runs for which query, on which cron. From SYNC_SCHEDULES (the JSON inline)
// or the JSON file SYNC_CONFIG names: `{ "schedules": [{ "name", "source", "cron", "query", "tz"? }] }`. Each query is
// checked by its connector when the server starts, so a typo stops the start with its reason rather than at 4 am.

const scheduleSchema = z
  .object({
    name: z.string().regex(/^[a-z0-9][a-z0-9-]{0,60}$/, 'name: lower-case letters, digits and dashes'),
    source: z.string().refine(isSourceName, { message: `source must be one of ${SOURCE_NAMES.join(', ')}` }),
    cron: z.string().min(9, 'cron must be a cron expression like "0 4 * * *"'),
    tz: z.string().optional(),
    query: z.record(z.string(), z.unknown()).default({}),
  })
  .strict();

export type Schedule = z.infer<typeof scheduleSchema>;

const fileSchema = z.object({ schedules: z.array(scheduleSchema) }).strict();

/** The configured schedules (none when neither variable is set). Throws with every problem named. */
export function loadSchedules(env: NodeJS.ProcessEnv = process.env): Schedule[] {
  let text: string | undefined = env.SYNC_SCHEDULES;
  let from = 'SYNC_SCHEDULES';
  if (!text && env.SYNC_CONFIG) {
    from = env.SYNC_CONFIG;
    try {
      text = readFileSync(env.SYNC_CONFIG, 'utf8');
    } catch (error) {
      throw new Error(`SYNC_CONFIG: cannot read ${env.SYNC_CONFIG} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
  }
  if (!text) return [];
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`${from}: not JSON (${(error as Error).message})`);
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    throw new Error(`${from}: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
  }
  const names = new Set<string>();
  for (const schedule of parsed.data.schedules) {
    if (names.has(schedule.name)) throw new Error(`${from}: two schedules are named ${schedule.name}`);
    names.add(schedule.name);
    try {
      SOURCES[schedule.source as keyof typeof SOURCES].parse(schedule.query);
    } catch (error) {
      throw new Error(`${from}: schedule ${schedule.name}: ${(error as Error).message}`);
    }
  }
  return parsed.data.schedules;
}

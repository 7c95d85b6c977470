import type pg from 'pg';
import { demoTick, type DemoTickSummary } from './demo-tick.js';

// The demo market's days (`npm start` with the demo data, unless DEMO_TICK=off): one tick for today at start (a demo
// left for a while picks up on the day it runs), then one a day, a few minutes after 00:00 UTC. A tick is harmless to
// repeat (the same day changes nothing), so instances that each run it agree; one refused because another instance
// already advanced the market further is not an error.

export type DemoTicksLogger = { info(object: object, message: string): void; warn(object: object, message: string): void };

const AFTER_MIDNIGHT_MS = 5 * 60_000;
const DAY_MS = 86_400_000;

/** The milliseconds from `now` to the next 00:05 UTC. */
export function untilNextTick(now: Date): number {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const next = midnight + AFTER_MIDNIGHT_MS;
  return next > now.getTime() ? next - now.getTime() : next + DAY_MS - now.getTime();
}

export function startDemoTicks(pool: pg.Pool, logger: DemoTicksLogger): { stop(): Promise<void> } {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<DemoTickSummary | void> | null = null;
  let stopped = false;
  const tick = () => {
    running = demoTick(pool, { asOf: new Date() })
      .then((summary) => logger.info({ demoTick: summary }, `demo market advanced to ${summary.day}: ${summary.events.recorded} event(s)`))
      .catch((error: Error) => {
        if (/already advanced/.test(error.message)) return;
        logger.warn({ err: error }, 'the demo market could not be advanced; tried again tomorrow');
      })
      .finally(() => {
        running = null;
        if (!stopped) {
          timer = setTimeout(tick, untilNextTick(new Date()));
          timer.unref();
        }
      });
  };
  tick();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}

import { pino, type Logger as PinoLogger } from 'pino';
import pretty from 'pino-pretty';

export type Logger = PinoLogger;
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

/**
 * The process's logger: one JSON object per line on stdout (pino), or readable lines when stdout is a terminal.
 * The API key is never logged (only its credential id); `authorization` headers are redacted should one ever be.
 */
export function createLogger(options: { level?: LogLevel; pretty?: boolean; destination?: NodeJS.WritableStream } = {}): Logger {
  const config = {
    level: options.level ?? 'info',
    base: { service: 'market-intelligence-api' },
    redact: { paths: ['authorization', '*.authorization', 'headers.authorization', 'apiKey', '*.apiKey'], censor: '[redacted]' },
    formatters: { level: (label: string) => ({ level: label }) },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  const prettyOutput = options.pretty ?? (!options.destination && process.stdout.isTTY === true);
  // pino-pretty as an in-process stream (no worker thread): a terminal is for people, not for throughput.
  if (prettyOutput) return pino(config, pretty({ colorize: true, sync: true, ignore: 'pid,hostname,service', translateTime: 'SYS:HH:MM:ss.l' }));
  return pino(config, options.destination ?? pino.destination({ dest: 1, sync: true }));
}

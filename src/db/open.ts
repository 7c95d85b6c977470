import type { Config } from '../config.js';
import { findRunningEmbedded, startEmbedded } from './embedded.js';

export type DatabaseLocation = {
  url: string;
  embedded: boolean;
  /** Whether the embedded database runs in this process (not DATABASE_URL, nor a running server's shared on loopback). */
  inProcess: boolean;
  close(): Promise<void>;
};

/**
 * Where the database is: DATABASE_URL, else the embedded PGlite under DATA_DIR. `shareRunning` lets a
 * second process (the CLI) use the embedded database a running server already serves on loopback.
 */
export async function openDatabase(config: Config, options: { shareRunning: boolean }): Promise<DatabaseLocation> {
  if (config.databaseUrl) return { url: config.databaseUrl, embedded: false, inProcess: false, close: async () => {} };
  const running = await findRunningEmbedded(config.dataDir);
  if (running) {
    if (!options.shareRunning) throw new Error(`another process already serves the embedded database in ${config.dataDir} (${running})`);
    return { url: running, embedded: true, inProcess: false, close: async () => {} };
  }
  const embedded = await startEmbedded(config.dataDir, { cacheMb: config.embeddedCacheMb });
  return { url: embedded.url, embedded: true, inProcess: true, close: () => embedded.close() };
}

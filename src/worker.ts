import { loadConfig } from './config.js';
import { connect } from './db/client.js';
import { migrate } from './db/migrate.js';
import { describeMaintenance, maintainHistoryPartitions, startHistoryMaintenance } from './db/partitions.js';
import { openDatabase } from './db/open.js';
import { startEvents } from './events/index.js';
import { startJobs } from './jobs/index.js';
import { createLogger } from './observability/logger.js';
import { migrationLines, settingsRefusal } from './startup.js';
import { useBaselineWasmCompilerOnly } from './wasm-tiering.js';

// `npm run worker`: a worker-only process. It works the job queue (the sync schedules) and dispatches the market's
// events (src/events/) on the database of DATABASE_URL, or on the embedded database of a server running in DATA_DIR
// (through its loopback socket), and serves no HTTP. Several may run: the queue gives each job to one of them, and one run per source runs at a time.
const config = loadConfig();
const logger = createLogger({ level: config.logLevel, pretty: config.logFormat === 'auto' ? undefined : config.logFormat === 'pretty' });
const refusal = settingsRefusal();
if (refusal) {
  logger.error(refusal);
  logger.flush();
  process.exit(1);
}
const location = await openDatabase(config, { shareRunning: true });
if (!location.inProcess) useBaselineWasmCompilerOnly();
const db = connect(location.url, { max: 3 });
await migrate(db.pool, migrationLines((line) => logger.info(line)));
const partitionLine = describeMaintenance(await maintainHistoryPartitions(db.pool, config.history));
if (partitionLine) logger.info(partitionLine);
const jobs = await startJobs(db.pool, { work: true, logger });
const events = startEvents(db.pool, { logger });
const historyPartitions = startHistoryMaintenance(db.pool, { ...config.history, logger });
logger.info({ pid: process.pid }, `worker ready: ${jobs.schedules.length} schedule(s)${jobs.schedules.length ? '' : ' (set SYNC_SCHEDULES or SYNC_CONFIG)'}`);

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'stopping: a run in flight is interrupted and resumes on the next start');
  await jobs.stop();
  await events.stop();
  await historyPartitions.stop();
  await db.close();
  await location.close();
  logger.flush();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));

// Exports queued by this process: the job queue (src/jobs/exports.ts) listens, to queue their jobs at once.

type Listener = (exportIds: string[]) => void;

const listeners = new Set<Listener>();

export function onExportsQueued(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function exportsQueued(exportIds: string[]): void {
  if (!exportIds.length) return;
  for (const listener of listeners) listener(exportIds);
}

// Exports running in this process, by id: a cancel (DELETE) made here reaches its job without the database. On the
// embedded database (PGlite, one backend) the job's snapshot holds the database, so the DELETE's own statement waits
// until the job ends: the job sees the cancel after its next chunk, stops, pays for what it wrote and records the
// cancel itself. On PostgreSQL the job also sees a cancel made by another process (its heartbeat finds the row cancelled).

type Running = { workspaceId: string; cancelled: boolean };

const running = new Map<string, Running>();

/** Registers a job's export while it runs; returns its flag (`cancelled`) and the function that unregisters it. */
export function runningHere(exportId: string, workspaceId: string): { flag: Running; done(): void } {
  const flag: Running = { workspaceId, cancelled: false };
  running.set(exportId, flag);
  return { flag, done: () => (running.get(exportId) === flag ? running.delete(exportId) : undefined) };
}

/** Asks the job of a workspace's export running in this process to stop; false when none runs here (another workspace's: none). */
export function cancelRunning(exportId: string, workspaceId: string): boolean {
  const flag = running.get(exportId);
  if (!flag || flag.workspaceId !== workspaceId) return false;
  flag.cancelled = true;
  return true;
}

/** Whether a cancel reached the job of this export in this process (tests wait for it). */
export function cancelSignalled(exportId: string): boolean {
  return running.get(exportId)?.cancelled ?? false;
}

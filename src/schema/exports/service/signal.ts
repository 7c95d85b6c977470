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

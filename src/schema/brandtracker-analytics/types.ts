import { builder } from '../builder.js';
import type { snapshotMeta } from './service.js';

// The object types every per-brandtracker analytics route may answer with; each route's own types are declared beside
// its root field (media-mix.ts, ads.ts, content.ts, …), in the order the schema lists them.

type SnapshotMeta = ReturnType<typeof snapshotMeta>;

export const SnapshotMetaRef = builder.objectRef<SnapshotMeta>('BrandtrackerSnapshotMeta').implement({
  description: 'Which snapshot day a response read.',
  fields: (t) => ({
    requestedSnapshotDate: t.exposeString('requestedSnapshotDate', { nullable: true, description: '"latest", the date asked for, or null (live data).' }),
    resolvedSnapshotDate: t.expose('resolvedSnapshotDate', { type: 'Date', nullable: true, description: 'The snapshot day read: the latest on or before the one asked for.' }),
    dataFreshnessLagDays: t.exposeInt('dataFreshnessLagDays', { nullable: true, description: 'Days from the day asked for (today for "latest") back to the day read.' }),
    periodNote: t.exposeString('periodNote', { description: 'What the figures cover.' }),
  }),
});

import { builder } from '../builder.js';
import { ExportFormatEnum, ExportMethodEnum, ExportStateEnum } from './args.js';
import type { ExportEstimate, ExportView } from './service.js';

export const ExportRef = builder.objectRef<ExportView>('Export').implement({
  description:
    "A bulk export: a market list route's whole result, read from one consistent snapshot and written as a file by a job " +
    '(GET /v1/exports/{exportId}/file once done, until expiresAt).',
  fields: (t) => ({
    id: t.id({ description: 'uuid', resolve: (row) => row.id }),
    method: t.field({ type: ExportMethodEnum, resolve: (row) => row.method as 'GET' | 'POST' }),
    path: t.exposeString('path', { description: 'The list route as called, `/v1/ads` or `/v1/brandtrackers/{id}/ads`.' }),
    params: t.field({ type: 'JSON', description: "The route's arguments, as sent.", resolve: (row) => row.params }),
    format: t.field({ type: ExportFormatEnum, resolve: (row) => row.format }),
    state: t.field({ type: ExportStateEnum, resolve: (row) => row.state }),
    rowsWritten: t.exposeInt('rowsWritten'),
    totalRows: t.exposeInt('totalRows', { nullable: true, description: 'The rows the export holds (counted in its snapshot once it runs; at creation, the rows counted then).' }),
    progress: t.exposeFloat('progress', { nullable: true, description: 'rowsWritten / totalRows, 0..1 (1 once done).' }),
    pricePerRow: t.exposeInt('pricePerRow', { description: "Credits per row: the route's own per-row price (0 for a free list)." }),
    priceHeld: t.exposeInt('priceHeld', { description: 'Credits held when it was created: its rows then × pricePerRow.' }),
    priceCharged: t.exposeInt('priceCharged', { description: 'Credits charged: the rows written × pricePerRow (a cancelled export pays for what it wrote; a failed one nothing).' }),
    fileBytes: t.exposeFloat('fileBytes', { nullable: true }),
    fileUrl: t.exposeString('fileUrl', { nullable: true, description: 'Where the file downloads (REST only, Range requests supported), while done.' }),
    error: t.exposeString('error', { nullable: true }),
    createdAt: t.field({ type: 'DateTime', resolve: (row) => row.createdAt }),
    startedAt: t.field({ type: 'DateTime', nullable: true, resolve: (row) => row.startedAt }),
    finishedAt: t.field({ type: 'DateTime', nullable: true, resolve: (row) => row.finishedAt }),
    expiresAt: t.field({ type: 'DateTime', nullable: true, description: 'When the file is deleted (EXPORT_TTL_HOURS after it was done).', resolve: (row) => row.expiresAt }),
  }),
});

export const ExportEstimateRef = builder.objectRef<ExportEstimate>('ExportEstimate').implement({
  description: 'What an export would cost now, nothing started or held (POST /v1/exports?dryRun=true).',
  fields: (t) => ({
    dryRun: t.exposeBoolean('dryRun'),
    rows: t.exposeInt('rows', { description: 'The rows the list has now.' }),
    pricePerRow: t.exposeInt('pricePerRow'),
    reserve: t.exposeInt('reserve', { description: 'The price: rows × pricePerRow, held when the export is created.' }),
    remaining: t.exposeInt('remaining', { description: "The workspace's credits left." }),
    affordable: t.exposeBoolean('affordable'),
    field: t.exposeString('field', { description: 'The GraphQL field the route runs (its price in the price table).' }),
  }),
});

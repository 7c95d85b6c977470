import type pg from 'pg';
import type { Batch, Format } from '../data/import/run.js';
import type { SourceHttp } from './http.js';

// What a connector is: a source's query, and the pages it fetches for it, each handed to an import format.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * One fetched page: its records for `format`, where the page after it starts (null: this was the last), and what
 * the connector keeps of it (validators for a conditional request), written in the page's transaction.
 * `unchanged`: records the source answered as not modified without sending them (a 304), counted as unchanged.
 */
export type Page = { format: Format<unknown>; batch: Batch; next: Json | null; keep?(client: pg.PoolClient): Promise<void>; unchanged?: number };

/** What a connector gets from the run: HTTP that waits and retries, the moment the run stands for, a way to note a skip. */
export type SourceIO = {
  http: SourceHttp;
  /** The database, for what a connector reads (the shops tracked) or keeps outside a page (a store that refused). */
  pool: pg.Pool;
  asOf: Date;
  signal: AbortSignal;
  /** A record or a whole store left out, with why (counted per reason in the run). */
  skip(reason: string, detail?: string): void;
  /**
   * How far along the run is, in the connector's own unit (stores, query chunks, countries), reported as each one is
   * done: after its last page was stored, or when it was left out. `total` null: the connector cannot tell.
   */
  progress(done: number, total: number | null): void;
};

export type Connector<Q> = {
  name: string;
  /** The query checked and normalised; a bad one throws a `validation_error`. */
  parse(query: unknown): Q;
  /** Credentials and settings this connector needs, checked before a run starts (throws a `SourceError` of kind `auth`). */
  ready(): void;
  /** Limits of the request loop for this source (a store that throttles for hours is left for later, not waited on). */
  http?: { maxWaits?: number; maxWaitMs?: number };
  /** The values never to show in a message. */
  secrets(): string[];
  /** The pages from `cursor` (null: the start) to the end. */
  pages(query: Q, cursor: Json | null, io: SourceIO): AsyncIterable<Page>;
};

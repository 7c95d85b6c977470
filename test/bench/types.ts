import type { MarketScale } from '../../src/data/market.js';

// The bench's vocabulary, shared by run.ts and the scenario files.

export type ServerKind = 'floor' | 'rest' | 'unmetered' | 'postgraphile';
/** `fresh`: a query parameter set to the instant of each request (the path's answer read anew, never a kept one). */
export type Target = { name: string; server: ServerKind; method?: 'GET' | 'POST'; path: string; body?: string; fresh?: string };
/**
 * A target an issue sets for a scenario, on its REST target against its first target (the floor): req/s at least
 * `atLeast` times the floor's, or p50 at most `atMost` times the floor's.
 */
export type Goal = { rps?: { atLeast: number }; p50?: { atMost: number }; issue: number };
export type Scenario = { id: string; title: string; targets: Target[]; compare?: 'throughput' | 'p50'; note?: string; goal?: Goal };
export type Result = { scale: MarketScale; scenario: string; target: string; rps: number; p50: number; p99: number; statements: number; peakRssMb: number; non2xx: number };

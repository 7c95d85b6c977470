/**
 * What this process last learnt of each workspace's credits (from the ledger's own statements), to tell a
 * call that may skip its hold: one whose workspace could pay it HEADROOM times over. Only a hint: a charge
 * is always the ledger's conditional UPDATE, so a stale figure can never overdraw the pools; at worst a call
 * runs and is then refused. Figures older than MAX_AGE_MS are not trusted (the workspace may spend on other
 * instances, or an operator may change its credits).
 */
export class KnownBalances {
  static readonly HEADROOM = 100;
  static readonly MAX_AGE_MS = 30_000;
  static readonly MAX_ENTRIES = 10_000;
  private readonly entries = new Map<string, { remaining: number; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Whether the workspace is known to hold at least HEADROOM times `amount` credits. */
  covers(workspaceId: string, amount: number): boolean {
    const entry = this.entries.get(workspaceId);
    if (!entry || this.now() - entry.at > KnownBalances.MAX_AGE_MS) return false;
    return entry.remaining >= Math.max(amount, 1) * KnownBalances.HEADROOM;
  }

  /** The last figure learnt for the workspace, when it is at most `maxAgeMs` old. */
  known(workspaceId: string, maxAgeMs = KnownBalances.MAX_AGE_MS): number | undefined {
    const entry = this.entries.get(workspaceId);
    return entry && this.now() - entry.at <= maxAgeMs ? entry.remaining : undefined;
  }

  learn(workspaceId: string, remaining: number): void {
    if (this.entries.size >= KnownBalances.MAX_ENTRIES && !this.entries.has(workspaceId)) this.entries.clear();
    this.entries.set(workspaceId, { remaining, at: this.now() });
  }

  forget(workspaceId: string): void {
    this.entries.delete(workspaceId);
  }
}

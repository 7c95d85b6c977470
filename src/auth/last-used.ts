import type { PrismaClient } from '../generated/prisma/client.js';

/**
 * Records a credential's last use at most once per interval per key, without delaying the request:
 * the write is fired and forgotten, and a failed write only leaves the stored time older.
 */
export class LastUsedRecorder {
  private readonly written = new Map<string, number>();

  constructor(
    private readonly prisma: PrismaClient,
    private readonly intervalMs: number,
  ) {}

  /** The time to report as lastUsedAt for this request. */
  touch(credentialId: string, stored: Date | null, now: Date): Date | null {
    const last = Math.max(this.written.get(credentialId) ?? 0, stored?.getTime() ?? 0);
    if (now.getTime() - last < this.intervalMs) return stored;
    this.written.set(credentialId, now.getTime());
    this.prisma.credential
      .update({ where: { id: credentialId }, data: { lastUsedAt: now } })
      .catch(() => this.written.delete(credentialId));
    return now;
  }
}

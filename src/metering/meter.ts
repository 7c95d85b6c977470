import type { Principal } from '../auth/principal.js';
import { apiError } from '../errors.js';
import { creditBalance, type CreditBalance } from './balance.js';
import type { KnownBalances } from './balances.js';
import type { ChargeBatcher } from './charges.js';
import { reserve, settle, type Settlement, type Sql } from './ledger.js';
import { costOf, reserveFor, type Price } from './prices.js';

/** What lets a well-funded workspace's calls skip their holds: what this process knows of balances, and where the charges go. */
export type NoHold = { balances: KnownBalances; charges: ChargeBatcher };

export type UsageSummary = { cost: number; recurring: number; topup: number; remaining: number | null; fields: { field: string; rows: number; cost: number }[] };

/**
 * Charges the priced fields of one request. Each field occurrence (an alias included) holds its maximum
 * before its resolver runs, is refused with 402 when the workspace cannot pay (before any data work),
 * and is settled to the rows it returned; a failed resolver releases its hold. When this process knows the
 * workspace can pay the maximum many times over (KnownBalances), the hold is skipped: the resolver runs and
 * its cost is charged in one statement, which still refuses the call if the pools were drained meanwhile.
 */
export class Meter {
  private readonly charged: Settlement[] = [];
  private readonly fields: UsageSummary['fields'] = [];

  constructor(
    private readonly db: Sql,
    private readonly principal: () => Promise<Principal>,
    private readonly requestId: string,
    private readonly headers: Map<string, string>,
    /** false on servers that do not sell credits (METERING=off): fields run free and nothing is recorded. */
    private readonly enabled = true,
    /** Without it every call holds first. */
    private readonly noHold?: NoHold,
  ) {}

  async run<T>(field: string, price: Price, args: Record<string, unknown>, execute: () => Promise<T> | T): Promise<T> {
    if (!this.enabled) return execute();
    const { workspace, credential } = await this.principal();
    const amount = reserveFor(price, args);
    const noHold = this.noHold;
    if (noHold?.balances.covers(workspace.id, amount)) {
      const result = await execute(); // a failure holds nothing and charges nothing
      const { rows, cost } = costOf(price, result);
      const due = Math.min(cost, amount); // never more than a hold would have kept
      const charged = await noHold.charges.charge({ workspaceId: workspace.id, cost: due, charge: { credentialId: credential.id, requestId: this.requestId, field, rows } });
      if (!charged) {
        noHold.balances.forget(workspace.id);
        this.withdrawFigures();
        throw insufficient(due);
      }
      noHold.balances.learn(workspace.id, charged.remaining);
      this.record(field, rows, charged);
      return result;
    }
    const hold = await reserve(this.db, workspace.id, amount);
    if (!hold) {
      noHold?.balances.forget(workspace.id);
      this.withdrawFigures();
      throw insufficient(amount);
    }
    let result: T;
    try {
      result = await execute();
    } catch (error) {
      await settle(this.db, hold, 0, null);
      throw error;
    }
    const { rows, cost } = costOf(price, result);
    const settled = await settle(this.db, hold, cost, { credentialId: credential.id, requestId: this.requestId, field, rows });
    noHold?.balances.learn(workspace.id, settled.remaining);
    this.record(field, rows, settled);
    return result;
  }

  /**
   * The workspace's credits as they stand (the one rule, balance.ts), for a call that reads them: its response
   * carries them in the credit headers, as a charged call's does, unless a field of the request was charged.
   */
  async balance(): Promise<CreditBalance> {
    const { workspace } = await this.principal();
    const balance = await creditBalance(this.db, workspace.id);
    if (this.charged.length === 0) {
      this.headers.set('X-Usage-Cost', '0');
      this.headers.set('X-Credits-Used', '0');
      this.headers.set('X-Credits-Remaining', String(balance.totalRemaining));
    }
    return balance;
  }

  private record(field: string, rows: number, settled: Settlement) {
    this.charged.push(settled);
    this.fields.push({ field, rows, cost: settled.cost });
    this.writeHeaders();
  }

  summary(): UsageSummary | null {
    if (this.charged.length === 0) return null;
    const sum = (key: 'cost' | 'recurring' | 'topup') => this.charged.reduce((total, s) => total + s[key], 0);
    return { cost: sum('cost'), recurring: sum('recurring'), topup: sum('topup'), remaining: this.charged.at(-1)!.remaining, fields: this.fields };
  }

  /** A refused call sends no credit figures: the one written before it ran (src/metering/credit-headers.ts) proved stale. */
  private withdrawFigures() {
    if (this.charged.length > 0) return;
    this.headers.delete('X-Usage-Cost');
    this.headers.delete('X-Credits-Remaining');
  }

  private writeHeaders() {
    const usage = this.summary()!;
    this.headers.set('X-Usage-Cost', String(usage.cost));
    this.headers.set('X-Credits-Used', String(usage.cost));
    this.headers.set('X-Credits-Remaining', String(usage.remaining));
    const source = usage.recurring > 0 && usage.topup > 0 ? 'hybrid' : usage.topup > 0 ? 'topup' : 'recurring';
    this.headers.set('X-Credits-Source', source);
  }
}

function insufficient(required: number) {
  return apiError('insufficient_credits', `This call needs ${required} credits and the workspace has fewer left. Read GET /v1/usage before retrying.`, {
    details: { required },
  });
}

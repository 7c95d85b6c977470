// Figures derived from a product row. The request's CPM and the caller's EU access (eu-access.ts) travel with the
// rows it loaded.

export const DEFAULT_CPM = 9;
/** The CPM stored EU spend figures are priced at: a request's `cpm` rescales them by cpm / EU_CPM_USD. */
export const EU_CPM_USD = 9;

export type RowView = { cpm: number; euAccess: boolean };
const VIEW = Symbol('view');
type WithView = { [VIEW]?: RowView };

export function withView<T extends object>(rows: T[], view: RowView): T[] {
  for (const row of rows) (row as WithView)[VIEW] = view;
  return rows;
}

export const viewOf = (row: object): RowView => (row as WithView)[VIEW] ?? { cpm: DEFAULT_CPM, euAccess: false };

/** EU spend (USD) at the row's CPM, or null when the caller's plan has no EU data. */
export function euSpend(row: object, storedUsd: number): number | null {
  const { cpm, euAccess } = viewOf(row);
  return euAccess ? Math.round(((storedUsd * cpm) / EU_CPM_USD) * 100) / 100 : null;
}

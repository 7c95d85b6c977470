// Reference exchange rates for turning storefront prices into USD (USD per unit of each ISO 4217 currency,
// rounded mid-2025 levels). USD figures derived from them are estimates, like every USD figure of the market.

export const USD_PER_UNIT: Readonly<Record<string, number>> = {
  USD: 1, EUR: 1.13, GBP: 1.34, CAD: 0.73, AUD: 0.65, NZD: 0.6, CHF: 1.21, SEK: 0.104, NOK: 0.098, DKK: 0.152,
  ISK: 0.0079, PLN: 0.266, CZK: 0.045, HUF: 0.0028, RON: 0.226, BGN: 0.58, TRY: 0.026, ILS: 0.28, AED: 0.2723,
  SAR: 0.2666, QAR: 0.2747, KWD: 3.26, JPY: 0.0069, CNY: 0.139, HKD: 0.1274, TWD: 0.032, KRW: 0.00073, SGD: 0.77,
  MYR: 0.23, THB: 0.03, IDR: 0.000061, PHP: 0.0177, VND: 0.000039, INR: 0.0117, PKR: 0.0036, BRL: 0.18, MXN: 0.052,
  ARS: 0.00088, CLP: 0.00106, COP: 0.00024, PEN: 0.27, ZAR: 0.055, NGN: 0.00064, EGP: 0.02, KES: 0.0077, MAD: 0.108,
  UAH: 0.024,
};

/** `amount` (decimal text) in USD to the cent, as decimal text; null when the currency has no reference rate. */
export function toUsd(amount: string, currency: string): string | null {
  const rate = USD_PER_UNIT[currency.toUpperCase()];
  if (rate === undefined) return null;
  return (Math.round(Number(amount) * rate * 100) / 100).toFixed(2);
}

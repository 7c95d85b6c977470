// The storefront currency (ISO 4217) and main language (ISO 639-1) of the market's countries (COUNTRY_WEIGHTS).

export const COUNTRY_CURRENCY: Readonly<Record<string, string>> = {
  US: 'USD', GB: 'GBP', CA: 'CAD', AU: 'AUD', NZ: 'NZD', CH: 'CHF', SE: 'SEK', DK: 'DKK', NO: 'NOK', PL: 'PLN', CZ: 'CZK',
  RO: 'RON', HU: 'HUF', BR: 'BRL', MX: 'MXN', JP: 'JPY', AE: 'AED', SG: 'SGD', IN: 'INR', ZA: 'ZAR',
  FR: 'EUR', DE: 'EUR', ES: 'EUR', IT: 'EUR', NL: 'EUR', BE: 'EUR', AT: 'EUR', IE: 'EUR', FI: 'EUR', PT: 'EUR', GR: 'EUR',
  LU: 'EUR', SK: 'EUR', SI: 'EUR', EE: 'EUR', LV: 'EUR', LT: 'EUR', HR: 'EUR', MT: 'EUR', CY: 'EUR',
};
export const COUNTRY_LANGUAGE: Readonly<Record<string, string>> = {
  US: 'en', GB: 'en', CA: 'en', AU: 'en', NZ: 'en', IE: 'en', SG: 'en', IN: 'en', ZA: 'en', AE: 'en',
  FR: 'fr', BE: 'fr', DE: 'de', AT: 'de', CH: 'de', ES: 'es', MX: 'es', IT: 'it', NL: 'nl', SE: 'sv', DK: 'da', NO: 'no',
  FI: 'fi', PT: 'pt', BR: 'pt', PL: 'pl', CZ: 'cs', GR: 'el', RO: 'ro', JP: 'ja',
};

export const currencyOf = (country: string) => COUNTRY_CURRENCY[country] ?? 'USD';
export const languageOf = (country: string) => COUNTRY_LANGUAGE[country] ?? 'en';

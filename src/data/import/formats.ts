// The import formats by name, apart from their parsers: the CLI's usage names them without loading any.
export const IMPORT_FORMATS = ['meta-ads', 'tiktok-ads', 'shopify-products', 'google-ads'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

import { declare, global } from './registry.js';

// Advertisers, shops and emails are market data: their ids name the same object for every workspace.

const PAGE = { advertiserId: '1000000000000001' };
const SHOP = { shopId: '5a0e0000-0000-4000-8000-000000000001' };

declare('GET /advertisers/:advertiserId', global('advertiserId is a market Facebook page', PAGE));
declare('GET /advertisers/:advertiserId/ads', global('advertiserId is a market Facebook page', PAGE));
declare('GET /shops/:identifier/similar', global('identifier is a market shop or domain', { identifier: 'glowlab.co' }));
for (const path of ['', '/sales/history', '/advertisers', '/socials/history', '/products', '/emails', '/emails/stats'] as const) {
  declare(`GET /shops/:shopId${path}`, global('shopId is a market shop', SHOP));
}
declare('GET /emails/:emailId', global('emailId is a market email', { emailId: '1' }));
declare('GET /emails/:emailId/html', global('emailId is a market email', { emailId: '1' }));

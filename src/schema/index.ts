import { builder } from './builder.js';
import './scalars.js';
import './system/index.js';
import './identity/index.js';
import './ads/index.js';
import './tiktok/index.js';
import './google-ads/index.js';
import './advertisers/index.js';
import './lookup/index.js';
import './facets/index.js';
import './shops/index.js';
import './emails/index.js';
import './products/index.js';
import './image-search/index.js';
import './brandtrackers/index.js';
import './brandtracker-analytics/index.js';
import './brand-changes/index.js';
import './boards/index.js';
import './favorites/index.js';
import './events/index.js';
import './webhooks/index.js';
import './saved-searches/index.js';
import './exports/index.js';

/** The one schema both surfaces serve. Field order is kept as written, so REST JSON keys follow the specification. */
export const schema = builder.toSchema({ sortSchema: false });

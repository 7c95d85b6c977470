import './types.js';
import './groups.js';
import './top-ads.js';
import './media-mix.js';

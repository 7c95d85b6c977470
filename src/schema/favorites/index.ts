import './ads.js';
import './ads-share.js';
import './shops.js';
import './emails.js';

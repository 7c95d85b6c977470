import './types.js';
import './detail.js';
import './queries.js';
import './reach-history.js';
import './media-url.js';
import './mutations.js';
import './landing-pages.js';

import './types.js';
import './detail.js';
import './queries.js';
import './resources.js';
import './share.js';
import './landing-pages.js';

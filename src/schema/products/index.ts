import './types.js';
import './queries.js';
import './facets.js';

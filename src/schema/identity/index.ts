import './types.js';
import './usage.js';
import './queries.js';

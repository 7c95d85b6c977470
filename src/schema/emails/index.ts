import './types.js';
import './queries.js';
import './stats.js';

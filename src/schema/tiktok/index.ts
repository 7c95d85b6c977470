import './types.js';
import './detail.js';
import './queries.js';

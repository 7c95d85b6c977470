import './types.js';
import './queries.js';

import './types.js';
import './queries.js';
import './detail.js';
import './resources.js';

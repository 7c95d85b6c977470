import './queries.js';
import './mutations.js';

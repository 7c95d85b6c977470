import './queries.js';
import './mutations.js';
import './items.js';
import './share.js';

import './types.js';
import './queries.js';
import './facebook-shop.js';

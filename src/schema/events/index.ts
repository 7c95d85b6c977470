import './queries.js';
import './subscriptions.js';

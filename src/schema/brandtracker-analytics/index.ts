// The workspace routes (all the brands the workspace tracks) first, then the per-brandtracker routes: the order of
// their root fields.
import './workspace-types.js';
import './workspace.js';
import './media-mix.js';
import './ads.js';
import './content.js';
import './time-series.js';
import './evolution.js';
import './timeline.js';
import './testing.js';
import './landing-pages.js';
import './top-ads.js';
import './overview.js';
import './scaling-ads.js';
import './creatives.js';
import './partners.js';
import './landing-pages-simple.js';
import './demography.js';

// Preloaded (--require) into each benchmarked server: counts the SQL statements it sends and samples its
// RSS, and reports both to the bench over IPC. Nothing of this runs outside the bench.
const pg = require('pg');

let statements = 0;
let peakRss = 0;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function countedQuery(...args) {
  statements += 1;
  return query.apply(this, args);
};
setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 100).unref();

process.on('message', (message) => {
  if (message === 'stats') process.send({ statements, peakRss, rss: process.memoryUsage().rss });
  if (message === 'reset') {
    statements = 0;
    peakRss = process.memoryUsage().rss;
  }
});

// Preloaded (--require) into each benchmarked server: counts the SQL statements it sends and the requests,
// samples its RSS, and reports them to the bench over IPC. Nothing of this runs outside the bench. BENCH_PG_MODULE names
// the pg copy to wrap when the server is not the project (PostGraphile's, under test/bench/.comparators).
const pg = require(process.env.BENCH_PG_MODULE || 'pg');

const { Server, ServerResponse } = require('node:http');

let statements = 0;
let requests = 0;
let open = 0;
let peakRss = 0;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function countedQuery(...args) {
  statements += 1;
  return query.apply(this, args);
};
// Requests, counted as they arrive, and those still open. A request the load generator cuts off at the end of
// a run is closed without a response but may still send its statements: it counts as a request, and the bench
// waits until none is open and the statement count has settled before it reads the counts.
const emit = Server.prototype.emit;
Server.prototype.emit = function countedEmit(event, ...args) {
  if (event === 'request' && args[1] instanceof ServerResponse) {
    requests += 1;
    open += 1;
    args[1].once('close', () => (open -= 1));
  }
  return emit.call(this, event, ...args);
};
setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 100).unref();

// The bench holds the IPC channel: when it goes (finished, killed, Ctrl-C), so does the server.
process.on('disconnect', () => process.exit(0));
process.on('message', (message) => {
  if (message === 'stats') process.send({ statements, requests, open, peakRss, rss: process.memoryUsage().rss });
  if (message === 'reset') {
    statements = 0;
    requests = 0;
    peakRss = process.memoryUsage().rss;
  }
});

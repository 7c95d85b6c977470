// The bench's load generator, in a process of its own: autocannon, run with the options given as JSON in argv[2],
// prints its result as JSON. Latencies are kept in microseconds: autocannon's own histogram keeps whole
// milliseconds, too coarse where a request takes 3 to 5 ms (a p50 of 4 against 5 reads as 1.25x, whatever the
// real gap). The figures printed are in milliseconds, with the microseconds as decimals.
const autocannon = require('autocannon');
const hdr = require(require.resolve('hdr-histogram-js', { paths: [require.resolve('autocannon')] }));

const { fresh, ...options } = JSON.parse(process.argv[2]);
// `fresh`: a query parameter set to the instant of each request, so that no two requests ask the same: a millisecond
// after the last one's when two fall in the same millisecond.
if (fresh) {
  const { pathname, search } = new URL(options.url);
  let last = 0;
  const instant = () => new Date((last = Math.max(Date.now(), last + 1))).toISOString();
  options.requests = [{ setupRequest: (request) => ({ ...request, path: `${pathname}${search ? `${search}&` : '?'}${fresh}=${instant()}` }) }];
}
const latencies = hdr.build({ useWebAssembly: true, bitBucketSize: 64, autoResize: true, lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: 3 });
const recordValue = latencies.recordValue.bind(latencies);
const recordValueWithExpectedInterval = latencies.recordValueWithExpectedInterval.bind(latencies);
// autocannon records each response time in (fractional) milliseconds.
latencies.recordValue = (ms) => recordValue(Math.max(1, Math.round(ms * 1000)));
latencies.recordValueWithExpectedInterval = (ms, interval) => recordValueWithExpectedInterval(Math.max(1, Math.round(ms * 1000)), Math.round(interval * 1000));

autocannon({ ...options, histograms: { latencies } }, (error, result) => {
  if (error) {
    console.error(error);
    process.exit(1);
  }
  const latency = {};
  for (const [key, value] of Object.entries(result.latency)) latency[key] = typeof value === 'number' && key !== 'totalCount' ? value / 1000 : value;
  process.stdout.write(JSON.stringify({ ...result, latency }));
});

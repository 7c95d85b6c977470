import { pgliteTemplate, postgresTemplate, type MarketTemplate, type TemplateContext } from './templates.js';

// Run by test/global-setup.ts in a child process, alongside the first test files: builds the run's templates of the
// markets several files read (PREBUILT_MARKETS), one after the other, so that no file waits for one within its hook's
// timeout on a busy machine. A file that asks for one first builds it itself (the same lock: it is built once).
// Argument: the TemplateContext and the markets, as JSON (dates as ISO strings).

const { context, markets } = JSON.parse(process.argv[2]!) as { context: TemplateContext; markets: (Omit<MarketTemplate, 'asOf'> & { asOf?: string })[] };
for (const market of markets) {
  const template = { ...market, asOf: market.asOf ? new Date(market.asOf) : undefined };
  if (context.kind === 'postgres') await postgresTemplate(context, process.env.TEST_DATABASE_URL!, template);
  else await pgliteTemplate(context, template);
}

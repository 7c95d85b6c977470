import { Kind, parse, type ExecutionResult, type GraphQLObjectType, type GraphQLSchema } from 'graphql';
import { isAsyncIterable, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import type { Authenticator } from '../src/auth/authenticate.js';
import type { RateLimiter } from '../src/metering/rate-limit.js';
import type { Logger } from '../src/observability/logger.js';
import { currentRequest, noteErrorCode } from '../src/plugins/use-request-state.js';
import { restErrorFrom, validationFailure, type RestError } from './errors.js';
import { argumentsFromHttp } from './arguments.js';
import { BASE_PATH } from './plugin.js';
import { EVENT_STREAM_ROUTE as ROUTE } from './routes.js';
import { envNumber } from '../src/config.js';

// GET /v1/events/stream: the live feed for REST clients, as Server-Sent Events (text/event-stream). It runs the
// GraphQL subscription `events` (src/schema/events/subscriptions.ts) with the request's query string as its arguments,
// so the key, the filters and their validation, the replay and the charge per event are the subscription's. Before
// the stream starts, a refusal is the REST error envelope with its status (401, 400, 402, 404, 429); once it runs:
// - each event is one message: `id:` its cursor, `data:` the event as the feed shows it;
// - `Last-Event-ID` (sent by EventSource when it reconnects, with the URL it first used) or `after` replays the stored
//   events after that one first, then goes live, none missed or repeated; the header wins over `after`;
// - a comment (`: heartbeat`) every EVENTS_HEARTBEAT_MS (default 15 s) keeps proxies from closing an idle stream;
// - an error that ends it (insufficient_credits when the workspace can no longer pay for the next events) is an
//   `event: error` message whose data is the error envelope, then the stream closes.
// It is not in the route table: a stream has no JSON envelope to describe, and the route-driven tools (MCP, the
// contract tests) would wait on it for ever.

export const EVENT_STREAM_PATH = `${BASE_PATH}${ROUTE.path}`;


/** EVENTS_HEARTBEAT_MS, read when the server is made. */
function heartbeatInterval(): number {
  return envNumber('EVENTS_HEARTBEAT_MS', 15_000, { min: 10, unit: 'milliseconds' });
}

type Delivered = { events: { cursor: string; event: Record<string, unknown> } };

export function useEventStream(options: { schema: GraphQLSchema; authenticate: Authenticator; rateLimiter: RateLimiter; logger?: Logger }): Plugin {
  const field = options.schema.getSubscriptionType()?.getFields().events;
  const eventType = options.schema.getType('Event') as GraphQLObjectType | undefined;
  if (!field || !eventType) throw new Error('useEventStream: the schema has no Subscription.events');
  // The subscription with every argument as a variable and every field of the event (the feed's item shape).
  const declared = field.args.map((arg) => `$${arg.name}: ${String(arg.type)}`).join(', ');
  const passed = field.args.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
  const source = `subscription EventStream(${declared}) { events(${passed}) { cursor event { ${Object.keys(eventType.getFields()).join(' ')} } } }`;
  const document = parse(source);
  if (document.definitions[0]?.kind !== Kind.OPERATION_DEFINITION) throw new Error('useEventStream: not an operation');
  let yoga: YogaServerInstance<Record<string, unknown>, Record<string, unknown>> | undefined;
  const heartbeatMs = heartbeatInterval();

  return {
    onYogaInit(payload) {
      yoga = payload.yoga as typeof yoga;
    },
    async onRequest({ request, url, endResponse, fetchAPI, serverContext }) {
      if (url.pathname !== EVENT_STREAM_PATH || request.method !== 'GET') return;
      const state = currentRequest()!;
      state.route = EVENT_STREAM_PATH;
      state.rest = true;
      const refuse = (failure: RestError) => {
        noteErrorCode(failure.body.error.code);
        if (failure.body.error.code === 'internal_error') options.logger?.error({ requestId: state.requestId }, 'internal error opening an event stream');
        endResponse(fetchAPI.Response.json(failure.body, { status: failure.status, headers: failure.headers }));
      };
      try {
        await (state.principal ??= options.authenticate(request.headers.get('authorization')));
      } catch (error) {
        return refuse(restErrorFrom([await options.rateLimiter.refusal(error, state.clientAddress)], state.requestId, ROUTE));
      }
      const query = new URLSearchParams(url.searchParams);
      const lastEventId = request.headers.get('last-event-id');
      if (lastEventId) query.set('after', lastEventId);
      const { values, violations } = argumentsFromHttp(ROUTE, field.args, { pathParams: {}, query, body: null });
      if (violations.length) return refuse(validationFailure(violations, state.requestId));

      const enveloped = yoga!.getEnveloped({ request, params: { query: source, variables: values }, ...serverContext });
      let result: AsyncIterable<ExecutionResult> | ExecutionResult;
      try {
        const contextValue = await enveloped.contextFactory();
        result = (await enveloped.subscribe({ schema: enveloped.schema, document, variableValues: values, contextValue })) as typeof result;
      } catch (error) {
        return refuse(restErrorFrom([error], state.requestId, ROUTE));
      }
      if (!isAsyncIterable(result)) return refuse(restErrorFrom(result.errors ?? [], state.requestId, ROUTE));
      endResponse(streamOf(result, { fetchAPI, requestId: state.requestId, heartbeatMs, logger: options.logger }));
    },
  };
}

/** The subscription's results as Server-Sent Events. */
function streamOf(
  results: AsyncIterable<ExecutionResult>,
  options: { fetchAPI: { ReadableStream: typeof ReadableStream; Response: typeof Response }; requestId: string; heartbeatMs: number; logger?: Logger },
): Response {
  const { fetchAPI, requestId, heartbeatMs, logger } = options;
  const iterator = results[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  let timer: NodeJS.Timeout | undefined;
  const stop = () => clearInterval(timer);
  const body = new fetchAPI.ReadableStream<Uint8Array>({
    start(controller) {
      // A first line at once (some clients wait for a byte before they report the stream open), and how long
      // EventSource waits before it reconnects.
      controller.enqueue(encoder.encode('retry: 3000\n: connected\n\n'));
      timer = setInterval(() => {
        if (controller.desiredSize === null) stop();
        else if (controller.desiredSize > 0) controller.enqueue(encoder.encode(': heartbeat\n\n'));
      }, heartbeatMs);
    },
    async pull(controller) {
      const fail = (errors: readonly unknown[]) => {
        const failure = restErrorFrom(errors, requestId, ROUTE);
        if (failure.body.error.code === 'internal_error') logger?.error({ requestId, err: errors[0] }, 'internal error in an event stream');
        controller.enqueue(encoder.encode(`event: error\ndata: ${JSON.stringify(failure.body)}\n\n`));
        stop();
        controller.close();
      };
      let next: IteratorResult<ExecutionResult>;
      try {
        next = await iterator.next();
      } catch (error) {
        return fail([error]);
      }
      if (next.done) {
        stop();
        return controller.close();
      }
      if (next.value.errors?.length) {
        void iterator.return?.();
        return fail(next.value.errors);
      }
      const { cursor, event } = (next.value.data as Delivered).events;
      controller.enqueue(encoder.encode(`id: ${cursor}\ndata: ${JSON.stringify(event)}\n\n`));
    },
    async cancel() {
      stop();
      await iterator.return?.();
    },
  });
  return new fetchAPI.Response(body, {
    status: 200,
    headers: { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' },
  });
}

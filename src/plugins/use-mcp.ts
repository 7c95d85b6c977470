import type { Plugin } from 'graphql-yoga';
import { createMcpHandler, type McpOptions } from '../mcp/handler.js';

/** Serves the Model Context Protocol at /v1/mcp (src/mcp/): tools that call the server's own routes. */
export function useMcp(options: McpOptions): Plugin {
  const handle = createMcpHandler(options);
  return {
    async onRequest({ request, url, endResponse }) {
      if (url.pathname === '/v1/mcp') endResponse(await handle(request));
    },
  };
}

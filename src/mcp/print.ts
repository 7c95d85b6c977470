import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { routes } from '../../rest/routes.js';
import { schema } from '../schema/index.js';
import { mcpTools } from './handler.js';

// `npm run mcp:tools`: writes the MCP tool list into src/mcp/README.md between its markers (a test checks it is current).

export const START = '<!-- mcp-tools:start -->';
export const END = '<!-- mcp-tools:end -->';

/** The README's tool table, from the route table and the schema. */
export function toolTable(): string {
  const tools = mcpTools({ schema, routes, mutations: true });
  const rows = tools.map((tool) => {
    const write = ('route' in tool ? tool.route.field.startsWith('Mutation.') : tool.writes) ? ' (MCP_MUTATIONS=on)' : '';
    const summary = tool.description.replace(/\s+/g, ' ').replace(/\|/g, '\\|');
    return `| \`${tool.name}\`${write} | ${summary} |`;
  });
  return ['| tool | what it does |', '|---|---|', ...rows].join('\n');
}

export function withToolTable(readme: string): string {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`src/mcp/README.md has no ${START} … ${END} section`);
  return `${readme.slice(0, start + START.length)}\n${toolTable()}\n${readme.slice(end)}`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const file = path.resolve(import.meta.dirname, 'README.md');
  await writeFile(file, withToolTable(await readFile(file, 'utf8')));
  console.log('wrote the MCP tool list into src/mcp/README.md');
}

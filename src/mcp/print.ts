import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { routes } from '../../rest/routes.js';
import { schema } from '../schema/index.js';
import { mcpTools } from './handler.js';
import { manifestOf, type Manifest } from './manifest.js';

// `npm run mcp:tools`: writes the MCP tool list into src/mcp/README.md between its markers, and the versioned manifest
// src/mcp/manifest.json (tests check both are current, and that no name of the manifest vanished without a deprecation).

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

export const MANIFEST_FILE = path.resolve(import.meta.dirname, 'manifest.json');

/** The manifest of the live tools (writes included), keeping every name of `previous`. */
export function toolManifest(previous?: Manifest): Manifest {
  const tools = mcpTools({ schema, routes, mutations: true }).map((tool) => ({
    name: tool.name, inputSchema: tool.inputSchema as { properties?: Record<string, unknown> }, writes: 'route' in tool ? tool.route.field.startsWith('Mutation.') : tool.writes,
  }));
  return manifestOf(tools, previous);
}

/** The manifest as committed: one line per tool, so that a change of a tool is a change of its line. */
export function printedManifest(manifest: Manifest): string {
  const lines = Object.entries(manifest.tools).map(([name, entry]) => `    ${JSON.stringify(name)}: ${JSON.stringify(entry)}`);
  return `{\n  "version": ${JSON.stringify(manifest.version)},\n  "tools": {\n${lines.join(',\n')}\n  }\n}\n`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const file = path.resolve(import.meta.dirname, 'README.md');
  await writeFile(file, withToolTable(await readFile(file, 'utf8')));
  const previous = await readFile(MANIFEST_FILE, 'utf8').then((text) => JSON.parse(text) as Manifest, () => undefined);
  await writeFile(MANIFEST_FILE, printedManifest(toolManifest(previous)));
  console.log('wrote the MCP tool list into src/mcp/README.md and its manifest into src/mcp/manifest.json');
}

// The versioned manifest of the MCP tools: the version the tool list carries (initialize's serverInfo.version and
// tools/list's _meta), and the deprecations that keep old names working. src/mcp/manifest.json (written by
// `npm run mcp:tools`) lists every tool and its argument names; it never forgets one: a tool or argument that
// disappears stays in it, and test/mcp/manifest.test.ts fails until DEPRECATIONS names what replaces it (its alias).

/**
 * The tool list's version: its minor grows when tools or arguments are added, its major when a deprecated alias is
 * finally removed (by hand: the manifest test fails on any name that vanishes, an alias included, until its entry and
 * the manifest's line are removed together).
 */
export const MCP_TOOLS_VERSION = '2.0.0';

export type Deprecation = { use: string; since: string };

/** Old names that keep working: a tool's old name → the tool to call; a tool's old argument → the argument to send. */
export const DEPRECATIONS: { tools: Record<string, Deprecation>; arguments: Record<string, Record<string, Deprecation>> } = {
  tools: {},
  arguments: {},
};

/** The tool names of the public service this server answers to (issue #40): a test calls each on the demo market. */
export const PUBLIC_TOOL_NAMES = [
  'search_ads', 'search_advertisers', 'search_shops', 'find_similar_shops', 'find_winning_products', 'search_google_ads_library', 'search_tiktok_library',
  'search_emails', 'get_email_html', 'lookup', 'lookup_filter_ids', 'scan_ad', 'brief_competitor', 'creative_inspiration_pack', 'analyze_tracked_brand',
  'analyze_brand_changes', 'analyze_shop_emails', 'get_brandtracker_scaling_ads', 'get_brandtracker_transcripts', 'daily_radar', 'list_tracked_brands',
  'add_to_brandtracker', 'create_brandtracker_folder', 'move_tracked_brands', 'delete_brandtracker_folder', 'list_favorites', 'create_favorite_folder',
  'add_favorite_item', 'check_credits', 'usage_get',
] as const;

export type Manifest = { version: string; tools: Record<string, { arguments: string[]; writes: boolean }> };
type ListedTool = { name: string; inputSchema: { properties?: Record<string, unknown> }; writes: boolean };

/** The manifest of these tools, keeping every tool and argument of `previous` (a manifest never forgets a name). */
export function manifestOf(tools: readonly ListedTool[], previous?: Manifest): Manifest {
  const entries: Manifest['tools'] = {};
  for (const [name, entry] of Object.entries(previous?.tools ?? {})) entries[name] = { arguments: [...entry.arguments], writes: entry.writes };
  for (const tool of tools) {
    const kept = entries[tool.name]?.arguments ?? [];
    entries[tool.name] = { arguments: [...new Set([...kept, ...Object.keys(tool.inputSchema.properties ?? {})])].sort(), writes: tool.writes };
  }
  const sorted = Object.fromEntries(Object.keys(entries).sort().map((name) => [name, entries[name]]));
  return { version: MCP_TOOLS_VERSION, tools: sorted };
}

/** What the live tools break of a manifest: a tool or argument gone without a deprecation naming a live replacement. */
export function manifestProblems(manifest: Manifest, tools: readonly ListedTool[], deprecations = DEPRECATIONS): string[] {
  const live = new Map(tools.map((tool) => [tool.name, new Set(Object.keys(tool.inputSchema.properties ?? {}))]));
  const problems: string[] = [];
  for (const [name, entry] of Object.entries(manifest.tools)) {
    const args = live.get(name);
    if (!args) {
      const alias = deprecations.tools[name];
      if (!alias) problems.push(`tool ${name} was removed or renamed without a deprecation entry`);
      else if (!live.has(alias.use)) problems.push(`tool ${name} is deprecated for ${alias.use}, which does not exist`);
      continue;
    }
    for (const arg of entry.arguments) {
      if (args.has(arg)) continue;
      const alias = deprecations.arguments[name]?.[arg];
      if (!alias) problems.push(`argument ${name}.${arg} was removed or renamed without a deprecation entry`);
      else if (!args.has(alias.use)) problems.push(`argument ${name}.${arg} is deprecated for ${alias.use}, which ${name} does not take`);
    }
  }
  return problems;
}

/** A call by an old name: the tool it now is, and its arguments under their current names. */
export function resolveDeprecated(name: string, args: Record<string, unknown>, deprecations = DEPRECATIONS): { name: string; args: Record<string, unknown> } {
  const own = <T>(record: Record<string, T>, key: string): T | undefined => (Object.hasOwn(record, key) ? record[key] : undefined);
  const current = own(deprecations.tools, name)?.use ?? name;
  const renames = { ...(own(deprecations.arguments, name) ?? {}), ...(own(deprecations.arguments, current) ?? {}) };
  if (!Object.keys(renames).length) return { name: current, args };
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    const to = (Object.hasOwn(renames, key) ? renames[key].use : undefined) ?? key;
    if (!(to in out) || key === to) out[to] = value;
  }
  return { name: current, args: out };
}

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { withToolTable } from '../../src/mcp/print.js';

it("src/mcp/README.md's MCP tool list is the generated one (npm run mcp:tools)", () => {
  const readme = readFileSync(path.resolve(import.meta.dirname, '../../src/mcp/README.md'), 'utf8');
  expect(withToolTable(readme)).toBe(readme);
});

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Domain boundaries (issue #34). A domain is a folder src/schema/<domain>/; src/schema/shared/ is the toolkit every
// domain uses, and the files at the top of src/schema (index, builder, scalars, access, validation, print) are the
// infrastructure that assembles them: neither is a domain. From outside its folder (another domain, src/mcp, src/data,
// src/plugins, rest/, …) a domain is reached only through its public face: service.ts for its operations, types.ts for
// its GraphQL types. The assembler, src/schema/index.ts, also loads each domain's index.ts, which registers it.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCANNED = ['src', 'rest'];
const NOT_SCANNED = new Set(['src/generated']);

/**
 * The imports that break the rule today, as "importer -> imported". The list only shrinks: an import missing from it
 * fails, and so does an entry that no longer happens (delete it when the import goes through service.ts/types.ts).
 */
const ALLOWED: { reason: string; imports: string[] }[] = [];

type Import = { importer: string; imported: string };

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return NOT_SCANNED.has(file) ? [] : sourceFiles(file);
    return entry.name.endsWith('.ts') ? [file] : [];
  });
}

/** Every relative import of the scanned files: static imports and re-exports, `import type`, and `import('…')`. */
function relativeImports(): Import[] {
  return SCANNED.flatMap(sourceFiles).flatMap((importer) =>
    ts
      .preProcessFile(readFileSync(path.join(ROOT, importer), 'utf8'), true, true)
      .importedFiles.filter(({ fileName }) => fileName.startsWith('.'))
      .map(({ fileName }) => ({ importer, imported: path.posix.join(path.posix.dirname(importer), fileName).replace(/\.js$/, '.ts') })),
  );
}

const domainOf = (file: string): string | undefined => {
  const domain = /^src\/schema\/([^/]+)\//.exec(file)?.[1];
  return domain === 'shared' ? undefined : domain;
};

function crossesBoundary({ importer, imported }: Import): boolean {
  const domain = domainOf(imported);
  if (!domain || domainOf(importer) === domain) return false;
  const face = [`src/schema/${domain}/service.ts`, `src/schema/${domain}/types.ts`];
  if (importer === 'src/schema/index.ts') face.push(`src/schema/${domain}/index.ts`);
  return !face.includes(imported);
}

describe('domain boundaries', () => {
  const imports = relativeImports();
  const crossings = [...new Set(imports.filter(crossesBoundary).map(({ importer, imported }) => `${importer} -> ${imported}`))];
  const allowed = ALLOWED.flatMap((group) => group.imports);

  it('reads every relative import of src/ and rest/ to a file that exists', () => {
    expect(imports.length).toBeGreaterThan(1000);
    expect(imports.filter(({ imported }) => !existsSync(path.join(ROOT, imported)))).toEqual([]);
  });

  it("reaches another domain only through its service.ts or types.ts (or lists the import in ALLOWED, with the reason)", () => {
    expect(crossings.filter((crossing) => !allowed.includes(crossing))).toEqual([]);
  });

  it('lists in ALLOWED only imports that still happen, once each (the list only shrinks)', () => {
    expect(allowed.filter((entry, index) => !crossings.includes(entry) || allowed.indexOf(entry) !== index)).toEqual([]);
  });
});

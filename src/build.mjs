// `npm run build`: compiles src/ and rest/ to dist/ with esbuild, one .js per .ts (no bundling), as `npm start`,
// `npm run cli` and `npm run worker` run them. It compiles only when a source is newer than its output (or the
// options changed), and writes only the outputs whose text changed, each through a temporary file and a rename:
// a process loading dist/ while another one builds (two starts, a test file) never reads a half-written module.
// An output whose source was deleted or renamed is deleted, so that nothing in dist/ runs code that no longer exists.
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const root = path.resolve(import.meta.dirname, '..');
const outdir = path.join(root, 'dist');
const options = { outdir, outbase: root, format: 'esm', platform: 'node', target: 'node22', logLevel: 'warning' };
const stampFile = path.join(outdir, '.build-options.json');
// esbuild's version from its package.json: esbuild itself is loaded only when there is something to compile (`npm run
// cli` and `npm start` run this first, and most often nothing changed).
const { version } = createRequire(import.meta.url)('esbuild/package.json');
const stamp = JSON.stringify({ esbuild: version, ...options, outdir: undefined, outbase: undefined });

const sources = ['src', 'rest'].flatMap((dir) =>
  readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => path.join(root, dir, name)),
);
const outputOf = (source) => path.join(outdir, path.relative(root, source)).replace(/\.ts$/, '.js');
const mtime = (file) => (existsSync(file) ? statSync(file).mtimeMs : -1);

const sameOptions = existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp;
const stale = sameOptions ? sources.filter((source) => mtime(outputOf(source)) < mtime(source)) : sources;

if (stale.length > 0) {
  const { build } = await import('esbuild');
  const result = await build({ ...options, entryPoints: stale, write: false });
  const now = new Date();
  for (const file of result.outputFiles) {
    if (existsSync(file.path) && readFileSync(file.path, 'utf8') === file.text) {
      utimesSync(file.path, now, now); // current: not looked at again until its source changes
      continue;
    }
    mkdirSync(path.dirname(file.path), { recursive: true });
    const temporary = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temporary, file.contents);
    renameSync(temporary, file.path);
  }
  if (!sameOptions) {
    const temporary = `${stampFile}.${process.pid}.tmp`;
    writeFileSync(temporary, stamp);
    renameSync(temporary, stampFile);
  }
}

// Outputs left by deleted sources (a module renamed or removed): the current sources import none of them. A process
// started from an older build that has yet to load such a module (a lazy import) would fail, as it would on any
// module rebuilt under it: restart what runs from dist/ after a build.
const outputs = new Set(sources.map(outputOf));
for (const dir of ['src', 'rest']) {
  const built = path.join(outdir, dir);
  if (!existsSync(built)) continue;
  for (const name of readdirSync(built, { recursive: true, encoding: 'utf8' })) {
    const file = path.join(built, name);
    if (name.endsWith('.js') && !outputs.has(file)) rmSync(file, { force: true });
  }
}

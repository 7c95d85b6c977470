import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { PGlite } from '@electric-sql/pglite';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import type { SqlMigrationAwareDriverAdapterFactory, SqlDriverAdapter } from '@prisma/driver-adapter-utils';
import { PrismaPGlite } from 'pglite-prisma-adapter';

// Prisma's schema engine, from its WebAssembly build on npm: no engine binary is downloaded.
// The module keeps global WASM state, so it is instantiated once per process.
type Engine = {
  diff(params: unknown): Promise<{ exitCode: number; stdout: string | null }>;
  free(): void;
};
type EngineModule = {
  __wbg_set_wasm(exports: WebAssembly.Exports): void;
  SchemaEngine: { new: (options: unknown, log: (line: string) => void, factory: unknown) => Promise<Engine> };
};

let ready: Promise<EngineModule> | undefined;

function loadModule(): Promise<EngineModule> {
  ready ??= (async () => {
    const require = createRequire(import.meta.url);
    const jsPath = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg');
    const bg = (await import('@prisma/schema-engine-wasm/schema_engine_bg')) as unknown as EngineModule;
    const bytes = await readFile(jsPath.replace(/\.js$/, '.wasm'));
    const { instance } = await WebAssembly.instantiate(bytes, { './schema_engine_bg.js': bg as unknown as WebAssembly.ModuleImports });
    bg.__wbg_set_wasm(instance.exports);
    return bg;
  })();
  return ready;
}

// The engine asks the adapter for its schema name; both adapters leave it undefined.
function withSchemaName(adapter: SqlDriverAdapter): SqlDriverAdapter {
  const info = adapter.getConnectionInfo?.bind(adapter);
  adapter.getConnectionInfo = () => {
    const current = info?.() ?? { supportsRelationJoins: false };
    return { ...current, schemaName: current.schemaName ?? 'public' };
  };
  return adapter;
}

/** SQL that takes a database from datamodel `from` (empty when null) to datamodel `to`. */
export async function diffDatamodels(from: string | null, to: string): Promise<string> {
  const bg = await loadModule();
  const pglite = new PGlite();
  const inner = new PrismaPGlite(pglite) as unknown as SqlMigrationAwareDriverAdapterFactory;
  const factory: SqlMigrationAwareDriverAdapterFactory = {
    provider: inner.provider,
    adapterName: inner.adapterName,
    connect: async () => withSchemaName(await inner.connect()),
    connectToShadowDb: async () => withSchemaName(await inner.connectToShadowDb()),
  };
  const datamodel = (content: string) => ({ tag: 'schemaDatamodel', files: [{ path: 'schema.prisma', content }] });
  const engine = await bg.SchemaEngine.new({ datamodels: [['schema.prisma', to]] }, () => {}, bindMigrationAwareSqlAdapterFactory(factory));
  try {
    const result = await engine.diff({
      from: from === null ? { tag: 'empty' } : datamodel(from),
      to: datamodel(to),
      script: true,
      exitCode: false,
      filters: { externalTables: [], externalEnums: [] },
    });
    return result.stdout ?? '';
  } finally {
    engine.free();
    await pglite.close();
  }
}

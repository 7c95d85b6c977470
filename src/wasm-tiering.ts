import { setFlagsFromString } from 'node:v8';

// How a process compiles WebAssembly. A server or worker whose database does not run in it (DATABASE_URL, or a
// running server's embedded database shared on loopback) runs chiefly Prisma's query compiler as WebAssembly (and
// undici's HTTP parser when it calls fetch). V8's optimising compiler (TurboFan) repays none of it, and glibc keeps
// the memory its compiles took after they free it: ~70 MB of the server's peak RSS under load, ~25 MB at rest
// (test/bench/baselines/2026-11-30T1441Z-wasm-baseline-compiler.md). The embedded database is PostgreSQL compiled to
// WebAssembly and runs every statement: a process that runs it keeps the optimising compiler.

/**
 * From now on V8 compiles WebAssembly with its baseline compiler (Liftoff) only. Call it before the first module is
 * compiled (Prisma compiles its own at its first query). Node starts V8 with flags that stay writable after start
 * (`--no-freeze-flags-after-init`), which is what lets `setFlagsFromString` take effect here.
 */
export function useBaselineWasmCompilerOnly(): void {
  setFlagsFromString('--liftoff-only');
}

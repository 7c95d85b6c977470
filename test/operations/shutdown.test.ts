import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { projectRoot } from '../../src/db/root.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

// SIGTERM while a request is in flight: the server stops accepting, answers that request, closes its pools and
// exits 0. The server runs as `npm start` runs it (the build of src/main.ts), in its own process, on the embedded database (or
// on a fresh PostgreSQL database in the postgres project). The request is held in flight by its chunked body: its
// last chunk is sent only once the server has logged that it is draining.

type Line = { msg?: string; port?: number; level?: string; [key: string]: unknown };

let child: ChildProcess | undefined;
let dataDir: string | undefined;
let database: TestDatabase | undefined;
afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  await database?.dispose();
});

function linesOf(process: ChildProcess) {
  const lines: Line[] = [];
  const waiters: { test: (line: Line) => boolean; resolve: (line: Line) => void }[] = [];
  let buffer = '';
  process.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    let newline;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const text = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      let line: Line;
      try {
        line = JSON.parse(text) as Line;
      } catch {
        continue; // the demo banner, when there is one
      }
      lines.push(line);
      for (const waiter of [...waiters]) if (waiter.test(line)) waiters.splice(waiters.indexOf(waiter), 1) && waiter.resolve(line);
    }
  });
  return {
    lines,
    next: (test: (line: Line) => boolean) => new Promise<Line>((resolve) => {
      const found = lines.find(test);
      if (found) resolve(found);
      else waiters.push({ test, resolve });
    }),
  };
}

/** Waits for a step, failing with what the server logged when it does not come (a hang is a failure, never a timeout). */
async function step<T>(name: string, pending: Promise<T>, lines: () => Line[]): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([pending, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no ${name} within 45 s; the server logged ${JSON.stringify(lines())}`)), 45_000)))]);
  } finally {
    clearTimeout(timer);
  }
}

function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(port, '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
  });
}

it('SIGTERM: new connections are refused, the request in flight is answered, then the process exits 0', async () => {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_FORMAT: 'json', LOG_LEVEL: 'info', DEMO_DATA: 'false', SHUTDOWN_TIMEOUT_MS: '30000' };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  if (process.env.TEST_DB === 'postgres') env.DATABASE_URL = (database = await createTestDatabase()).url;
  else env.DATA_DIR = dataDir = await mkdtemp(path.join(tmpdir(), 'mi-shutdown-'));
  // As `npm start` runs it: the esbuild output, plain JavaScript (no loader in the process).
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: projectRoot, stdio: 'inherit' });
  child = spawn(process.execPath, [path.join(projectRoot, 'dist/src/main.js')], { cwd: projectRoot, env, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => child!.on('exit', (code, signal) => resolve({ code, signal })));
  const out = linesOf(child);
  const listening = await step('listening', Promise.race([out.next((line) => typeof line.port === 'number'), exited]), () => out.lines);
  if (!('msg' in listening)) throw new Error(`the server exited before listening: ${JSON.stringify(listening)} ${JSON.stringify(out.lines)}`);
  const { port } = listening;

  const socket = await openSocket(port!);
  let answer = '';
  const answered = new Promise<void>((resolve) => {
    socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
    socket.on('end', () => resolve());
    socket.on('close', () => resolve());
  });
  const body = JSON.stringify({ query: '{ health { status } }' });
  socket.write(`POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`);
  socket.write(`${(10).toString(16)}\r\n${body.slice(0, 10)}\r\n`);

  const sent = child.kill('SIGTERM');
  const diag = () => { let status = ''; try { status = readFileSync(`/proc/${child!.pid}/status`, 'utf8').split('\n').filter((l) => /^(State|SigPnd|ShdPnd|SigBlk|SigIgn|SigCgt)/.test(l)).join(' | '); } catch {} return [...out.lines, { msg: `kill sent=${sent} exit=${child!.exitCode} signal=${child!.signalCode} ${status}` }]; };
  await step('draining line', out.next((line) => line.msg === 'draining requests in flight, then shutting down'), diag);
  await expect(step('refusal', openSocket(port!), () => out.lines)).rejects.toThrow(/ECONNREFUSED|ECONNRESET/); // the listener is closed

  const rest = body.slice(10);
  socket.write(`${Buffer.byteLength(rest).toString(16)}\r\n${rest}\r\n0\r\n\r\n`);
  await step('answer', answered, () => [...out.lines, { msg: `socket received: ${answer}` }]);
  expect(answer).toMatch(/^HTTP\/1\.1 200 /);
  expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4).replace(/^[0-9a-f]+\r\n/, '').replace(/\r\n0\r\n\r\n$/, '').replace(/\r\n$/, ''))).toEqual({ data: { health: { status: 'ok' } } });

  expect(await step('exit', exited, () => out.lines)).toEqual({ code: 0, signal: null });
  expect(out.lines.some((line) => line.msg === 'stopped')).toBe(true);
  expect(out.lines.some((line) => line.msg === 'request' && line.route === '/graphql' && line.status === 200)).toBe(true);
});

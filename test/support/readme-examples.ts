import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// The README's examples as data (issue #39): each fenced block that holds a curl line, an operator CLI line or a
// GraphQL operation, with the label of the `<!-- example: label -->` comment on the line before it, split into its
// commands. test/first-hour/readme-examples.test.ts runs them against the demo market.

export const ROOT = path.resolve(import.meta.dirname, '../..');

/** The READMEs whose examples are run: the top one and each domain's (the top one links them all). */
export function readmeFiles(): string[] {
  const domains = readdirSync(path.join(ROOT, 'src/schema'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `src/schema/${entry.name}/README.md`)
    .filter((file) => {
      try {
        readFileSync(path.join(ROOT, file));
        return true;
      } catch {
        return false;
      }
    })
    .sort();
  return ['README.md', ...domains];
}

export type ExampleBlock = {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** From `<!-- example: label -->` on the line before the fence; null when there is none. */
  label: string | null;
  kind: 'shell' | 'graphql';
  /** Shell: one command per entry (continuation lines joined, comment lines dropped). GraphQL: one operation each. */
  commands: string[];
};

const LABEL = /^<!--\s*example:\s*([a-z0-9-]+)\s*-->$/;
/** A shell command the suite runs: a curl call or the operator CLI. */
export const RUNNABLE = /^(curl\s|npm run --silent cli -- |[A-Z_]+=\S+ npm run --silent cli -- )/;

/** The example blocks of one README: every `graphql` block, and every shell block with a curl or CLI line. */
export function exampleBlocks(file: string): ExampleBlock[] {
  const lines = readFileSync(path.join(ROOT, file), 'utf8').split('\n');
  const blocks: ExampleBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\w*)\s*$/.exec(lines[i]);
    if (!open || !open[2]) continue;
    const indent = open[1].length;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !/^\s*```\s*$/.test(lines[j]); j++) body.push(lines[j].slice(indent));
    const previous = i > 0 ? LABEL.exec(lines[i - 1].trim()) : null;
    const lang = open[2];
    const start = i + 1;
    i = j;
    if (lang === 'graphql') {
      blocks.push({ file, line: start, label: previous?.[1] ?? null, kind: 'graphql', commands: graphqlOperations(body) });
    } else if (['sh', 'bash', 'shell'].includes(lang)) {
      const commands = shellCommands(body);
      if (commands.some((command) => RUNNABLE.test(command))) {
        blocks.push({ file, line: start, label: previous?.[1] ?? null, kind: 'shell', commands });
      }
    }
  }
  return blocks;
}

/** Lines joined at a trailing backslash; blank and comment lines dropped. */
function shellCommands(lines: string[]): string[] {
  const commands: string[] = [];
  let current = '';
  for (const line of lines) {
    if (!current && (!line.trim() || line.trim().startsWith('#'))) continue;
    if (line.endsWith('\\')) {
      current += `${line.slice(0, -1)} `;
      continue;
    }
    commands.push((current + line).trim());
    current = '';
  }
  if (current.trim()) commands.push(current.trim());
  return commands;
}

/** An operation starts on an unindented line; indented lines continue it. */
function graphqlOperations(lines: string[]): string[] {
  const operations: string[] = [];
  for (const line of lines) {
    if (!line.trim()) continue;
    if (/^\S/.test(line) || operations.length === 0) operations.push(line);
    else operations[operations.length - 1] += `\n${line}`;
  }
  return operations;
}

/**
 * The words of a shell command as sh reads them: '…' literal, "…" with \" \\ \$ \` escapes, a backslash outside
 * quotes escaping the next character, a # starting a word beginning a comment.
 */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else if (c === '#' && word === null) {
      break;
    } else if (c === "'") {
      const end = command.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unclosed ' in: ${command}`);
      word = (word ?? '') + command.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let text = '';
      let k = i + 1;
      for (; k < command.length && command[k] !== '"'; k++) {
        if (command[k] === '\\' && '"\\$`'.includes(command[k + 1])) k++;
        text += command[k];
      }
      if (k >= command.length) throw new Error(`unclosed " in: ${command}`);
      word = (word ?? '') + text;
      i = k;
    } else if (c === '\\') {
      word = (word ?? '') + (command[i + 1] ?? '');
      i++;
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== null) words.push(word);
  return words;
}

export type CurlRequest = {
  method: string;
  /** The URL as written (http://localhost:3000/…). */
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** -F name=value, or name=@file (a path from the repository's root). */
  form?: [string, string][];
  /** -o: the answer is written to a file (here: read and dropped). */
  output?: string;
};

/** A curl command line as curl reads it (the options the README uses; any other is refused, so it gets noticed). */
export function parseCurl(words: string[]): CurlRequest {
  if (words[0] !== 'curl') throw new Error(`not a curl command: ${words.join(' ')}`);
  const request: CurlRequest = { method: '', url: '', headers: {} };
  for (let i = 1; i < words.length; i++) {
    const word = words[i];
    const value = () => {
      const next = words[++i];
      if (next === undefined) throw new Error(`${word} needs a value`);
      return next;
    };
    if (word === '-H' || word === '--header') {
      const header = value();
      const colon = header.indexOf(':');
      request.headers[header.slice(0, colon).trim().toLowerCase()] = header.slice(colon + 1).trim();
    } else if (word === '-d' || word === '--data' || word === '--data-raw') request.body = value();
    else if (word === '-X' || word === '--request') request.method = value();
    else if (word === '-F' || word === '--form') {
      const field = value();
      const eq = field.indexOf('=');
      (request.form ??= []).push([field.slice(0, eq), field.slice(eq + 1)]);
    } else if (word === '-o' || word === '--output') request.output = value();
    else if (word === '-N' || word === '--no-buffer' || word === '-s' || word === '--silent') continue;
    else if (/^https?:\/\//.test(word) && !request.url) request.url = word;
    else throw new Error(`curl option the README examples do not use yet: ${word}`);
  }
  if (!request.url) throw new Error(`no URL in: ${words.join(' ')}`);
  request.method ||= request.body !== undefined || request.form ? 'POST' : 'GET';
  if (request.body !== undefined) request.headers['content-type'] ??= 'application/x-www-form-urlencoded';
  return request;
}

import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The project's folder (the one with package.json and prisma/), found upwards from this module: the same
 * answer when the server runs from its sources (src/) or from the build `npm start` makes (dist/src/).
 */
function findProjectRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json')) && existsSync(path.join(dir, 'prisma'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no project folder (package.json and prisma/) above ${from}`);
  }
}

export const projectRoot = findProjectRoot(import.meta.dirname);

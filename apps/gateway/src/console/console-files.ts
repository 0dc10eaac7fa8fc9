import { existsSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, extname, join } from 'node:path';

/** One file of the built console, held in memory. */
export interface ConsoleFile {
  body: Buffer;
  type: string;
  etag: string;
  /** Assets are named by their content's hash: cached for good. Pages are revalidated. */
  immutable: boolean;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/**
 * The built console (`npm run build` writes dist/console): exactly the files its manifest
 * lists, read once at start-up. Requests name a file, never a path on disk: nothing a client
 * sends reaches the file system.
 */
export class ConsoleFiles {
  private constructor(
    private readonly pages: Map<string, ConsoleFile>,
    private readonly assets: Map<string, ConsoleFile>,
    /** Why there is no console (not built); null when there is. */
    readonly missing: string | null,
  ) {}

  static load(dir = defaultConsoleDir()): ConsoleFiles {
    const manifestFile = join(dir, 'manifest.json');
    if (!existsSync(manifestFile)) {
      return new ConsoleFiles(new Map(), new Map(), `The console is not built (no ${manifestFile}): run npm run build.`);
    }
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { pages: Record<string, string>; assets: string[] };
    const read = (name: string, immutable: boolean): ConsoleFile => {
      const body = readFileSync(join(dir, name));
      return { body, type: TYPES[extname(name)] ?? 'application/octet-stream', etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`, immutable };
    };
    const pages = new Map(Object.entries(manifest.pages).map(([key, name]) => [key, read(name, false)]));
    const assets = new Map(manifest.assets.map((name) => [name.replace(/^assets\//, ''), read(name, true)]));
    return new ConsoleFiles(pages, assets, null);
  }

  page(key: 'index' | 'apiDocs'): ConsoleFile | undefined {
    return this.pages.get(key);
  }

  asset(name: string): ConsoleFile | undefined {
    return this.assets.get(name);
  }
}

/** dist/console beside the project's package.json, from the sources and the build alike. */
function defaultConsoleDir(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return join(dir, 'dist', 'console');
}

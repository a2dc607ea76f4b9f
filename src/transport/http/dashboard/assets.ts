import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Middleware } from 'koa';

/** A fixed list (no path comes from the URL); URLs carry a content hash, so they may be cached long. */
const FILES = {
  'dashboard.css': 'text/css; charset=utf-8',
  'dashboard.js': 'text/javascript; charset=utf-8',
} as const;

export type AssetName = keyof typeof FILES;
export const ASSETS_PREFIX = '/dashboard/assets/';

interface Asset {
  body: Buffer;
  type: string;
  version: string;
}

/** Next to this module under src/ (tsx, jest); from the repository's src/ when running compiled code in dist/. */
function assetsDir(): string {
  const local = path.join(__dirname, 'assets');
  if (existsSync(path.join(local, 'dashboard.css'))) return local;
  let dir = __dirname;
  while (path.dirname(dir) !== dir && !existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return path.join(dir, 'src', 'transport', 'http', 'dashboard', 'assets');
}

let loaded: Map<string, Asset> | undefined;
function assets(): Map<string, Asset> {
  if (!loaded) {
    const dir = assetsDir();
    loaded = new Map(
      Object.entries(FILES).map(([name, type]) => {
        const body = readFileSync(path.join(dir, name));
        return [name, { body, type, version: createHash('sha256').update(body).digest('hex').slice(0, 12) }];
      }),
    );
  }
  return loaded;
}

export function assetUrl(name: AssetName): string {
  return `${ASSETS_PREFIX}${name}?v=${assets().get(name)!.version}`;
}

export function serveAssets(): Middleware {
  return async (ctx, next) => {
    if (!ctx.path.startsWith(ASSETS_PREFIX)) return next();
    const asset = assets().get(ctx.path.slice(ASSETS_PREFIX.length));
    if (!asset || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    ctx.type = asset.type;
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.body = asset.body;
  };
}

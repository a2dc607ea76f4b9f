import { createHash } from 'node:crypto';
import type { Middleware } from 'koa';

export type AssetFile = [name: string, body: Buffer, type: string];

/** A fixed list of files (no path comes from the URL), read on first use; their URLs carry a content hash, so they cache long. */
export function staticAssets(prefix: string, read: () => AssetFile[]) {
  let loaded: Map<string, { body: Buffer; type: string; version: string }> | undefined;
  const assets = () =>
    (loaded ??= new Map(read().map(([name, body, type]) => [name, { body, type, version: createHash('sha256').update(body).digest('hex').slice(0, 12) }])));
  return {
    url: (name: string): string => `${prefix}${name}?v=${assets().get(name)!.version}`,
    serve: (): Middleware => async (ctx, next) => {
      if (!ctx.path.startsWith(prefix) || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
      const asset = assets().get(ctx.path.slice(prefix.length));
      if (!asset) return next();
      ctx.type = asset.type;
      ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.body = asset.body;
    },
  };
}

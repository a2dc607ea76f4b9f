import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { staticAssets, type AssetFile } from '../static-assets';

const FILES = {
  'dashboard.css': 'text/css; charset=utf-8',
  'dashboard.js': 'text/javascript; charset=utf-8',
} as const;

export type AssetName = keyof typeof FILES;
export const ASSETS_PREFIX = '/dashboard/assets/';

/** Next to this module under src/ (tsx, jest); from the repository's src/ when running compiled code in dist/. */
function assetsDir(): string {
  const local = path.join(__dirname, 'assets');
  if (existsSync(path.join(local, 'dashboard.css'))) return local;
  let dir = __dirname;
  while (path.dirname(dir) !== dir && !existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return path.join(dir, 'src', 'transport', 'http', 'dashboard', 'assets');
}

const assets = staticAssets(ASSETS_PREFIX, () => {
  const dir = assetsDir();
  return Object.entries(FILES).map(([name, type]): AssetFile => [name, readFileSync(path.join(dir, name)), type]);
});

export const assetUrl: (name: AssetName) => string = assets.url;
export const serveAssets = assets.serve;

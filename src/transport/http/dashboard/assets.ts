import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../../infra/tools';
import { staticAssets, type AssetFile } from '../static-assets';

const FILES = {
  'dashboard.css': 'text/css; charset=utf-8',
  'dashboard.js': 'text/javascript; charset=utf-8',
} as const;

/** The sources' copy, also for compiled code in dist/ (the build does not copy them). */
const ASSETS_DIR = path.join(PROJECT_ROOT, 'src', 'transport', 'http', 'dashboard', 'assets');

const assets = staticAssets('/dashboard/assets/', () =>
  Object.entries(FILES).map(([name, type]): AssetFile => [name, readFileSync(path.join(ASSETS_DIR, name)), type]),
);

export const assetUrl: (name: keyof typeof FILES) => string = assets.url;
export const serveAssets = assets.serve;

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../../infra/tools';
import { staticAssets, type AssetFile } from '../static-assets';

const FILES = {
  'portal.css': 'text/css; charset=utf-8',
  'portal.js': 'text/javascript; charset=utf-8',
} as const;

/** The sources' copy, also for compiled code in dist/ (the build does not copy them). */
const ASSETS_DIR = path.join(PROJECT_ROOT, 'src', 'transport', 'http', 'portal', 'assets');

const assets = staticAssets('/portal/assets/', () =>
  Object.entries(FILES).map(([name, type]): AssetFile => [name, readFileSync(path.join(ASSETS_DIR, name)), type]),
);

export const portalAssetUrl: (name: keyof typeof FILES) => string = assets.url;
export const servePortalAssets = assets.serve;

import { loadPageAssets, publicDirOf, type PageAssets } from '../web/page-assets';

export type ConsoleAssets = PageAssets;

/** The console's own files (its pages and app), beside the shared ones of src/web/public. */
export const PUBLIC_DIR = publicDirOf('console/public');

/** The console's page, modules, the shared files and the vendored packages, read once (about 60 KB). */
export function loadConsoleAssets(publicDir = PUBLIC_DIR): ConsoleAssets {
  return loadPageAssets(publicDir);
}

export { CLIENT_BUNDLE_DIRECTORY, loadClientAssets } from './client-assets.js';
export { findInstalledPackage, packageCandidates, type InstalledPackage } from './app-package.js';
export { RenderConfigSchema, loadRenderConfig, type RenderConfig } from './config.js';
export { appShapeProblems, loadApp, type LoadedApp } from './load-app.js';
export { buildRenderApp, type ClientAssets, type RenderAppDeps } from './render-app.js';
export { startServedApp, type ServedApp } from './served-app.js';

/**
 * create-strata-app as a library: `scaffold` writes a new app (the `create-strata-app` command
 * calls it).
 */
export { scaffold, ScaffoldError, type ScaffoldOptions, type ScaffoldResult } from './scaffold.js';
export { appManifest, packageNameOf, platformDependencies } from './app-manifest.js';

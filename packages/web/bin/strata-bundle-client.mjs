#!/usr/bin/env node
// Bundles the browser side of the Strata app in the current directory (an app's build runs it
// after compiling); the bundling itself is @strata/web/build's bundleClient, which @strata/render's
// `strata build` calls too.
import { bundleClient } from '../dist/build/client-bundle.js';

try {
  const { appName, client } = await bundleClient({ root: process.cwd() });
  console.log(`client bundle of ${appName}: ${client}`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

#!/usr/bin/env node
// `strata` (dev, build, start): the compiled command line. A file of its own, present before the
// first build, so npm links the command when it installs the workspace.
await import('../dist/cli/strata.js');

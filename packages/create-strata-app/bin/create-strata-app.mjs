#!/usr/bin/env node
// `create-strata-app`: the compiled scaffolder. A file of its own, present before the first
// build, so npm links the command when it installs the workspace.
await import('../dist/cli.js');

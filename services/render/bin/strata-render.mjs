#!/usr/bin/env node
// `strata-render`: the render service's composition root, as the image runs it. A file of its
// own, present before the first build, so npm links the command when it installs the workspace.
await import('../dist/main.js');

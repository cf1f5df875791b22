#!/usr/bin/env node
// The `ferry` command: the command-line peer as the build compiled it (scripts/build.mjs).
import { existsSync } from 'node:fs';

const program = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(program)) {
  // A checkout where `npm install` has not run: its `prepare` step makes dist/.
  console.error(
    'Ferry is not built: run "npm install" (or "node scripts/build.mjs") in its folder.',
  );
  process.exit(1);
}
await import(program.href);

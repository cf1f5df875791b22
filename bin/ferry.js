#!/usr/bin/env node
// The `ferry` command: runs the command-line peer from its TypeScript source through tsx.
import { register } from 'tsx/esm/api';

register();
await import('../src-main/cli/main.ts');

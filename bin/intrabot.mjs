#!/usr/bin/env node
// The CLI is TypeScript run through tsx, so bot authors and the framework share one toolchain.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');

#!/usr/bin/env node
// `silo-bridge`: runs the built bridge from dist/node when present, else the TypeScript source via tsx.
import { existsSync } from 'node:fs';

const built = new URL('../dist/node/bridge/cli.js', import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../bridge/cli.ts', import.meta.url).href);
}

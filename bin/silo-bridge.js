#!/usr/bin/env node
// `silo-bridge`: runs the bridge compiled to JavaScript (dist/node, built by `npm run build` and at
// `npm pack` time), so an installed package needs no TypeScript loader. In a checkout of the
// repository that has not been built, it runs the TypeScript source through tsx (a devDependency).
import { existsSync } from 'node:fs';

const built = new URL('../dist/node/bridge/cli.js', import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  let register;
  try {
    ({ register } = await import('tsx/esm/api'));
  } catch {
    process.stderr.write('silo-bridge: dist/node/bridge/cli.js is missing; run `npm run build` first\n');
    process.exit(1);
  }
  register();
  await import(new URL('../bridge/cli.ts', import.meta.url).href);
}

// `npm start`: the demo page served by Vite. (The bridge and reference agent join in their issue.)
import { createServer } from 'vite';

const server = await createServer({ configFile: 'vite.config.ts', logLevel: 'warn' });
await server.listen();
const url = server.resolvedUrls?.local[0];
console.log(`[silo] demo page served by Vite from demo/\n[silo] open ${url}`);

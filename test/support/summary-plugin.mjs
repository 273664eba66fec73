// A @web/test-runner plugin for the reliability and security suite (test/browser/reliability*,
// attacks*, conformance*). Commands (payload → result):
//   silo-report        {category, n, name, unit?} → {ok}  appends a summary record (see summary.ts)
//   silo-env           {}                  → {long, engine}  whether the long variants run (SILO_LONG=1)
//   silo-foreign-page  {}                  → {origin}  a static server on another port (another
//                      origin) serving /attack.html: it opens the WebSocket described in its
//                      fragment ({url, protocols}) and posts {opened, code} to its parent
//   silo-proxy-start   {target: port}      → {id, url}  a TCP proxy to a bridge that rewrites the Host
//                      header (so the bridge's Host check passes) and can be cut
//   silo-proxy-cut     {id}                → {cut: n}  destroys every connection through it (socket drop)
//   silo-proxy-stop    {id}                → {stopped}
//   silo-proc-status   {pid}               → {rssKiB, peakRssKiB}  VmRSS / VmHWM of a process (Linux)
import { appendFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { connect, createServer as createTcpServer } from 'node:net';
import { procStatusKiB } from './bridge-process.mjs';

/** The page a foreign origin serves: it tries the bridge with whatever it was told (even the right token). */
const ATTACK_PAGE = `<!doctype html><meta charset="utf-8"><title>foreign page</title><script>
const { url, protocols } = JSON.parse(decodeURIComponent(location.hash.slice(1)));
let opened = false;
const socket = new WebSocket(url, protocols);
socket.onopen = () => { opened = true; socket.close(); };
socket.onclose = (e) => parent.postMessage({ opened, code: e.code, origin: location.origin }, '*');
</script>`;

function engineOf(session) {
  const name = String(session?.browser?.name ?? session?.browser?.type ?? '').toLowerCase();
  return name.includes('firefox') ? 'firefox' : name.includes('chrom') ? 'chromium' : name || 'browser';
}

/** A Host-rewriting TCP proxy: page → proxy → bridge. */
function startProxy(targetPort) {
  const sockets = new Set();
  const server = createTcpServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => {});
    let head = Buffer.alloc(0);
    let upstream;
    const onData = (data) => {
      if (upstream) return;
      head = Buffer.concat([head, data]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      client.off('data', onData);
      client.pause();
      const text = head
        .subarray(0, end)
        .toString('latin1')
        .replace(/\r\nHost: [^\r]*/i, `\r\nHost: 127.0.0.1:${targetPort}`);
      upstream = connect(targetPort, '127.0.0.1', () => {
        upstream.write(Buffer.concat([Buffer.from(text, 'latin1'), head.subarray(end)]));
        client.pipe(upstream);
        upstream.pipe(client);
        client.resume();
      });
      sockets.add(upstream);
      upstream.on('close', () => {
        sockets.delete(upstream);
        client.destroy();
      });
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
    };
    client.on('data', onData);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: server.address().port,
        cut() {
          const n = sockets.size;
          for (const s of sockets) s.destroy();
          return n;
        },
        stop: () =>
          new Promise((r) => {
            for (const s of sockets) s.destroy();
            server.close(() => r());
          }),
      }),
    ),
  );
}

export function siloSummary() {
  const proxies = new Map();
  let nextProxy = 1;
  let foreign;

  async function foreignPage() {
    if (!foreign) {
      const html = ATTACK_PAGE;
      const server = createHttpServer((req, res) => {
        res.writeHead(req.url?.startsWith('/attack.html') ? 200 : 404, {
          'Content-Type': 'text/html; charset=utf-8',
        });
        res.end(req.url?.startsWith('/attack.html') ? html : 'not found');
      });
      await new Promise((r) => server.listen(0, '127.0.0.1', r));
      foreign = { server, origin: `http://127.0.0.1:${server.address().port}` };
    }
    return { origin: foreign.origin };
  }

  return {
    name: 'silo-summary',
    async serverStop() {
      for (const p of proxies.values()) await p.stop();
      proxies.clear();
      foreign?.server.closeAllConnections?.();
      foreign?.server.close();
    },
    async executeCommand({ command, payload, session }) {
      switch (command) {
        case 'silo-report': {
          const file = process.env.SILO_SUMMARY_FILE;
          if (file) appendFileSync(file, `${JSON.stringify({ engine: engineOf(session), ...payload })}\n`);
          return { ok: true };
        }
        case 'silo-env':
          return { long: process.env.SILO_LONG === '1', engine: engineOf(session) };
        case 'silo-foreign-page':
          return foreignPage();
        case 'silo-proxy-start': {
          const proxy = await startProxy(Number(payload.target));
          const id = `proxy-${nextProxy++}`;
          proxies.set(id, proxy);
          return { id, url: `ws://127.0.0.1:${proxy.port}` };
        }
        case 'silo-proxy-cut':
          return { cut: proxies.get(payload.id)?.cut() ?? 0 };
        case 'silo-proxy-stop': {
          await proxies.get(payload.id)?.stop();
          proxies.delete(payload.id);
          return { stopped: true };
        }
        case 'silo-proc-status': {
          const pid = Number(payload.pid);
          return { rssKiB: procStatusKiB(pid, 'VmRSS'), peakRssKiB: procStatusKiB(pid, 'VmHWM') };
        }
        default:
          return undefined;
      }
    },
  };
}

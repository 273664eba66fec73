/**
 * For Node tests of the bridge's guard: one raw WebSocket upgrade, resolved with the HTTP status of
 * the refusal and its body (or 101 once the socket opened, which it then closes).
 */
import { WebSocket } from 'ws';

export function upgradeStatus(
  url: string,
  protocols: string[],
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, protocols, { headers });
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    ws.once('open', () => {
      ws.close();
      resolve({ status: 101, body: '' });
    });
    ws.once('error', (error) => {
      if (!/Unexpected server response/.test(error.message)) reject(error);
    });
  });
}

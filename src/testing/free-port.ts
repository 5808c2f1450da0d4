import { createServer } from 'node:net';

/**
 * A port free on 127.0.0.1 right now, for a child process that must be told its port up front (a
 * monitoring tool started next to the pair, say). Another process may take it before yours does: start
 * yours at once.
 *
 * @example
 * const port = await freePort();
 * spawn('alertmanager', [`--web.listen-address=127.0.0.1:${port}`]);
 */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

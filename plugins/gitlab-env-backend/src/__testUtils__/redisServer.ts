import { execFileSync, spawn, spawnSync } from 'child_process';
import { createServer } from 'net';
import { join } from 'path';

const ENSURE_REDIS = join(__dirname, '../../../../scripts/ensure-redis.sh');

export interface RunningRedis {
  url: string;
  /** Number of keys the server holds. */
  dbSize(): number;
  /** Empties the server; it stops when the test process exits. */
  close(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Debian's redis-server on a free loopback port, without persistence
 * (installed by scripts/ensure-redis.sh when missing).
 */
export async function startRedis(): Promise<RunningRedis> {
  execFileSync('bash', [ENSURE_REDIS], { stdio: 'inherit' });
  const port = await freePort();
  // The server lives until this test process exits, not just this file:
  // Backstage's cache clients stay connected after a backend stops, and a
  // server that went away earlier would fail them with an unhandled error.
  const server = `redis-server --port ${port} --bind 127.0.0.1 --save '' --appendonly no --loglevel warning --logfile ''`;
  const child = spawn(
    'bash',
    [
      '-c',
      `${server} & r=$!; while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; kill $r`,
    ],
    { stdio: 'ignore', detached: true },
  );
  child.unref();
  const ping = () =>
    spawnSync('redis-cli', ['-p', String(port), 'ping']).stdout?.toString();
  for (let i = 0; ping()?.trim() !== 'PONG'; i++) {
    if (i === 100) throw new Error(`redis-server did not start on ${port}`);
    await new Promise(resolve => setTimeout(resolve, 100));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    dbSize: () =>
      Number(
        execFileSync('redis-cli', ['-p', String(port), 'dbsize'])
          .toString()
          .trim(),
      ),
    /** Empties the server; it stops when the test process exits. */
    close: async () => {
      execFileSync('redis-cli', ['-p', String(port), 'flushall']);
    },
  };
}

import { ChildProcess, execFileSync, spawn } from 'child_process';
import { createServer } from 'net';
import { join } from 'path';

const ENSURE_REDIS = join(__dirname, '../../../../scripts/ensure-redis.sh');

export interface RunningRedis {
  url: string;
  /** Number of keys the server holds. */
  dbSize(): number;
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
  const child: ChildProcess = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', code =>
      reject(new Error(`redis-server exited with ${code}: ${output}`)),
    );
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    dbSize: () =>
      Number(
        execFileSync('redis-cli', ['-p', String(port), 'dbsize'])
          .toString()
          .trim(),
      ),
    close: () =>
      new Promise(resolve => {
        if (child.exitCode !== null) {
          resolve();
          return;
        }
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

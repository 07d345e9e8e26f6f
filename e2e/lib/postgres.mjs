// A throwaway PostgreSQL cluster for the browser test that runs the portal on
// PostgreSQL: Debian's server binaries (scripts/ensure-postgresql.sh installs
// them), a data directory under the temp dir, trust auth on loopback only.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function serverBinary(name) {
  const base = '/usr/lib/postgresql';
  const versions = readdirSync(base).sort((a, b) => Number(b) - Number(a));
  return join(base, versions[0], 'bin', name);
}

/** Runs a server tool as the postgres user when we are root: the server refuses root. */
function asServerUser(command, args) {
  const asRoot = process.getuid?.() === 0;
  const result = spawnSync(
    asRoot ? 'runuser' : command,
    asRoot ? ['-u', 'postgres', '--', command, ...args] : args,
    { encoding: 'utf8' },
  );
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} failed: ${result.stderr || result.stdout}`,
    );
  }
}

export async function startPostgres() {
  execFileSync('bash', [join(root, 'scripts/ensure-postgresql.sh')], {
    stdio: 'inherit',
  });
  const dir = mkdtempSync(join(tmpdir(), 'gitlab-env-pg-'));
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const port = await freePort();
  asServerUser(serverBinary('initdb'), [
    '-D',
    data,
    '-U',
    'postgres',
    '-A',
    'trust',
    '--no-sync',
  ]);
  asServerUser(serverBinary('pg_ctl'), [
    '-D',
    data,
    '-l',
    join(dir, 'server.log'),
    '-w',
    'start',
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
  ]);
  return {
    connection: {
      host: '127.0.0.1',
      port,
      user: 'postgres',
      password: 'unused',
    },
    stop() {
      try {
        asServerUser(serverBinary('pg_ctl'), [
          '-D',
          data,
          '-m',
          'fast',
          '-w',
          'stop',
        ]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

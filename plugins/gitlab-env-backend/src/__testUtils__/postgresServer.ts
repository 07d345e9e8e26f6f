import { execFileSync, spawn, spawnSync } from 'child_process';
import { chownSync, mkdtempSync, readdirSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

const ENSURE_POSTGRESQL = join(
  __dirname,
  '../../../../scripts/ensure-postgresql.sh',
);
const SERVER_BINARIES = '/usr/lib/postgresql';

/** The TestDatabases id of a running server and the variable that names it. */
export interface RunningPostgres {
  /** e.g. `POSTGRES_15`, as `TestDatabases.create({ ids })` names it. */
  id: string;
}

function asServerUser(command: string, args: string[]) {
  const asRoot = process.getuid?.() === 0;
  const result = spawnSync(
    asRoot ? 'runuser' : command,
    asRoot ? ['-u', 'postgres', '--', command, ...args] : args,
    { encoding: 'utf8' },
  );
  if (result.status !== 0)
    throw new Error(
      `${command} ${args.join(' ')} failed: ${result.stderr || result.stdout}`,
    );
}

function freePortSync(): number {
  // A port from the ephemeral range nothing listens on: asked of the kernel
  // through a short-lived node process (this must be synchronous).
  return Number(
    execFileSync(process.execPath, [
      '-e',
      "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})",
    ])
      .toString()
      .trim(),
  );
}

/**
 * Debian's PostgreSQL server (scripts/ensure-postgresql.sh installs it) in
 * a throwaway cluster on a free loopback port, started synchronously so a
 * test file can hand it to `TestDatabases.create` when it loads: the
 * `BACKSTAGE_TEST_DATABASE_POSTGRES<major>_CONNECTION_STRING` variable
 * TestDatabases reads is set. The server stops when the test process exits.
 */
export function startPostgresSync(): RunningPostgres {
  execFileSync('bash', [ENSURE_POSTGRESQL], { stdio: 'inherit' });
  const major = readdirSync(SERVER_BINARIES).sort(
    (a, b) => Number(b) - Number(a),
  )[0];
  const bin = (name: string) => join(SERVER_BINARIES, major, 'bin', name);
  const dir = mkdtempSync(join(tmpdir(), 'gitlab-env-pg-'));
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const port = freePortSync();
  asServerUser(bin('initdb'), [
    '-D',
    data,
    '-U',
    'postgres',
    '-A',
    'trust',
    '--no-sync',
  ]);
  asServerUser(bin('pg_ctl'), [
    '-D',
    data,
    '-l',
    join(dir, 'server.log'),
    '-w',
    'start',
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
  ]);
  // Stopped once this test process is gone, whatever way it ends.
  const stop = `${
    process.getuid?.() === 0 ? 'runuser -u postgres -- ' : ''
  }${bin('pg_ctl')} -D ${data} -m immediate stop; rm -rf ${dir}`;
  spawn(
    'bash',
    [
      '-c',
      `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; ${stop}`,
    ],
    { stdio: 'ignore', detached: true },
  ).unref();
  const id = `POSTGRES_${major}`;
  process.env[
    `BACKSTAGE_TEST_DATABASE_POSTGRES${major}_CONNECTION_STRING`
  ] = `postgresql://postgres@127.0.0.1:${port}`;
  return { id };
}

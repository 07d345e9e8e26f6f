import { execFile, spawn, spawnSync } from 'child_process';
import { DEMO_TOKEN } from '../scenario/generate';
import { RunningSimulator, startGitlabSimulator } from '../server';
import { TEST_TUNNEL_FIND_TIMEOUT_MS } from '../testing/harness';
import { writeKubeconfig } from './kubeconfig';

/**
 * The real kubectl against the simulator over HTTPS, through the KAS proxy
 * path with a `pat:<agent>:<token>` bearer token — kubectl sends no bearer
 * token over plain HTTP, so this is how a user runs the commands the UI shows.
 */
const KUBECTL = spawnSync('sh', ['-c', 'command -v kubectl'])
  .stdout?.toString()
  .trim();
const describeWithKubectl = KUBECTL ? describe : describe.skip;
if (!KUBECTL) {
  // eslint-disable-next-line no-console
  console.warn(
    'kubectl is not installed: skipping the kubectl tests (run scripts/ensure-kubectl.sh to install it).',
  );
}

jest.setTimeout(60_000);

describeWithKubectl('kubectl against the simulator over HTTPS', () => {
  // Each test gets a cluster of its own: the commands change it (restarts,
  // scales, deletes), and a later test must not meet an earlier one's pods
  // still starting or terminating.
  let running: RunningSimulator | undefined;
  const sim = () => running!;
  let kubeconfig: string;

  beforeEach(async () => {
    running = await startGitlabSimulator({
      port: 0,
      tls: true,
      tickMs: 0,
      logFollowIntervalMs: 50,
      clusterKnobs: {
        podStartMs: 150,
        podTerminationMs: 300,
        bookmarkIntervalMs: 500,
      },
      kasTunnels: { findTimeoutMs: TEST_TUNNEL_FIND_TIMEOUT_MS },
    });
    kubeconfig = writeKubeconfig({
      server: sim().kasProxyUrl,
      token: `pat:1:${DEMO_TOKEN}`,
      certificateAuthority: sim().certificate,
      namespace: 'storefront',
    });
  });
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  function kubectl(
    ...args: string[]
  ): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise(resolve => {
      execFile(
        KUBECTL!,
        ['--kubeconfig', kubeconfig, '--request-timeout=20s', ...args],
        { timeout: 45_000 },
        (error, stdout, stderr) =>
          resolve({
            code: error ? Number((error as any).code ?? 1) : 0,
            stdout,
            stderr,
          }),
      );
    });
  }

  /** Runs a streaming kubectl command until `until` holds for its output, then stops it. */
  function kubectlStream(
    args: string[],
    until: (out: string) => boolean,
  ): Promise<string> {
    return new Promise((resolve, reject) => {
      const child = spawn(KUBECTL!, ['--kubeconfig', kubeconfig, ...args]);
      let out = '';
      const timer = setTimeout(() => {
        child.kill();
        reject(
          new Error(
            `kubectl ${args.join(
              ' ',
            )} did not print what was expected:\n${out}`,
          ),
        );
      }, 30_000);
      child.stdout.on('data', chunk => {
        out += chunk;
        if (until(out)) {
          clearTimeout(timer);
          child.kill();
          resolve(out);
        }
      });
      child.on('exit', () => {
        clearTimeout(timer);
        if (until(out)) resolve(out);
      });
    });
  }

  /** `kubectl rollout status` with a bound, as a person would wait for it. */
  const rolloutStatus = (what: string, ...flags: string[]) =>
    kubectl(...flags, 'rollout', 'status', what, '--timeout=40s');

  const json = async (...args: string[]) =>
    JSON.parse((await kubectl(...args, '-o', 'json')).stdout);

  it('kubectl get pods -o wide prints the server-side table with its wide columns', async () => {
    const { code, stdout, stderr } = await kubectl('get', 'pods', '-o', 'wide');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const [header, ...rows] = stdout.trimEnd().split('\n');
    expect(header.split(/\s{2,}/)).toEqual([
      'NAME',
      'READY',
      'STATUS',
      'RESTARTS',
      'AGE',
      'IP',
      'NODE',
      'NOMINATED NODE',
      'READINESS GATES',
    ]);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(
      /^storefront-web-\S+\s+1\/1\s+Running\s+0\s+\S+\s+10\.42\./,
    );
  });

  it('kubectl delete pod --grace-period=0 --force removes it at once (DeleteOptions in the body)', async () => {
    const [graceful, forced] = (await json('get', 'pods')).items.map(
      (p: any) => p.metadata.name,
    );
    sim().setClusterKnobs({ podTerminationMs: 5000 });
    try {
      await kubectl('delete', 'pod', graceful, '--wait=false');
    } finally {
      sim().setClusterKnobs({ podTerminationMs: 300 });
    }
    expect((await kubectl('get', 'pod', graceful)).stdout).toMatch(
      /Terminating/,
    );
    const result = await kubectl(
      'delete',
      'pod',
      forced,
      '--grace-period=0',
      '--force',
      '--wait=false',
    );
    expect(result.stdout).toContain(`pod "${forced}" force deleted`);
    const gone = await kubectl('get', 'pod', forced);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain(`pods "${forced}" not found`);
  });

  it('kubectl logs --tail and -f (bounded)', async () => {
    const pod = (await json('get', 'pods')).items[0].metadata.name;
    const tail = await kubectl('logs', pod, '--tail=3');
    expect(tail.code).toBe(0);
    expect(tail.stdout.trimEnd().split('\n')).toHaveLength(3);
    const followed = await kubectlStream(
      ['-n', 'storefront', 'logs', '-f', '--tail=1', pod],
      out => out.split('\n').filter(Boolean).length >= 4,
    );
    expect(followed.split('\n').filter(Boolean).length).toBeGreaterThanOrEqual(
      4,
    );
  });

  it('kubectl rollout restart, then rollout status completes, with a new ReplicaSet', async () => {
    const before = (await json('get', 'rs')).items.map(
      (rs: any) => rs.metadata.name,
    );
    const restarted = await kubectl(
      'rollout',
      'restart',
      'deployment/storefront-web',
    );
    expect(restarted.stdout.trim()).toBe(
      'deployment.apps/storefront-web restarted',
    );
    const status = await rolloutStatus('deployment/storefront-web');
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(
      'deployment "storefront-web" successfully rolled out',
    );
    const after = (await json('get', 'rs')).items;
    const fresh = after.filter((rs: any) => !before.includes(rs.metadata.name));
    expect(fresh).toHaveLength(1);
    expect(fresh[0].status.readyReplicas).toBe(3);
    expect(after.filter((rs: any) => rs.spec.replicas > 0)).toHaveLength(1);
  });

  it('kubectl rollout undo goes back to the previous ReplicaSet instead of making a new one', async () => {
    const before = (await json('get', 'rs')).items.map(
      (rs: any) => rs.metadata.name,
    );
    const undone = await kubectl(
      'rollout',
      'undo',
      'deployment/storefront-web',
    );
    expect(undone.stdout.trim()).toBe(
      'deployment.apps/storefront-web rolled back',
    );
    expect((await rolloutStatus('deployment/storefront-web')).code).toBe(0);
    const after = (await json('get', 'rs')).items;
    expect(after.map((rs: any) => rs.metadata.name).sort()).toEqual(
      [...before].sort(),
    );
    const active = after.filter((rs: any) => rs.spec.replicas > 0);
    expect(active).toHaveLength(1);
    expect(
      active[0].spec.template.metadata.annotations?.[
        'kubectl.kubernetes.io/restartedAt'
      ],
    ).toBeUndefined();
  });

  /** The REVISION column of `kubectl rollout history`, in order. */
  const historyRevisions = (out: string) =>
    out
      .split('\n')
      .map(line => /^(\d+)\s/.exec(line)?.[1])
      .filter(Boolean)
      .map(Number);

  it('kubectl rollout history and undo --to-revision of a Deployment reuse the old ReplicaSet (kubectl polymorphichelpers/history.go, rollback.go)', async () => {
    const ns = ['-n', 'checkout'];
    const history = await kubectl(
      ...ns,
      'rollout',
      'history',
      'deployment/checkout-api',
    );
    expect(history.stderr).toBe('');
    expect(history.stdout).toContain('REVISION  CHANGE-CAUSE');
    expect(historyRevisions(history.stdout)).toEqual([3, 4, 5]);
    const third = await kubectl(
      ...ns,
      'rollout',
      'history',
      'deployment/checkout-api',
      '--revision=3',
    );
    expect(third.stdout).toMatch(
      /Image:\s+registry\.example\.com\/acme\/shop\/checkout-api:3\.8\.0/,
    );
    const before = (await json(...ns, 'get', 'rs')).items.map(
      (rs: any) => rs.metadata.name,
    );
    const undone = await kubectl(
      ...ns,
      'rollout',
      'undo',
      'deployment/checkout-api',
      '--to-revision=3',
    );
    expect(undone.stdout.trim()).toBe(
      'deployment.apps/checkout-api rolled back',
    );
    expect((await rolloutStatus('deployment/checkout-api', ...ns)).code).toBe(
      0,
    );
    const sets = (await json(...ns, 'get', 'rs')).items;
    expect(sets.map((rs: any) => rs.metadata.name).sort()).toEqual(
      [...before].sort(),
    );
    const active = sets.filter((rs: any) => rs.spec.replicas > 0);
    expect(active).toHaveLength(1);
    expect(active[0].metadata.annotations).toMatchObject({
      'deployment.kubernetes.io/revision': '6',
      'deployment.kubernetes.io/revision-history': '3',
    });
    expect(
      (
        await kubectl(
          ...ns,
          'get',
          'deployment/checkout-api',
          '-o',
          'jsonpath={.spec.template.spec.containers[0].image}',
        )
      ).stdout,
    ).toBe('registry.example.com/acme/shop/checkout-api:3.8.0');
    expect(
      historyRevisions(
        (await kubectl(...ns, 'rollout', 'history', 'deployment/checkout-api'))
          .stdout,
      ),
    ).toEqual([4, 5, 6]);
    const again = await kubectl(
      ...ns,
      'rollout',
      'undo',
      'deployment/checkout-api',
      '--to-revision=6',
    );
    expect(again.stdout.trim()).toBe(
      'deployment.apps/checkout-api skipped rollback (current template already matches revision 6)',
    );
    const unknown = await kubectl(
      ...ns,
      'rollout',
      'undo',
      'deployment/checkout-api',
      '--to-revision=9',
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(
      'unable to find specified revision 9 in history',
    );
  });

  it('kubectl rollout history and undo of a StatefulSet go through its ControllerRevisions', async () => {
    const ns = ['-n', 'search'];
    const revisions = async () =>
      historyRevisions(
        (
          await kubectl(
            ...ns,
            'rollout',
            'history',
            'statefulset/search-indexer',
          )
        ).stdout,
      );
    expect(await revisions()).toEqual([1, 2]);
    const set = await kubectl(
      ...ns,
      'set',
      'image',
      'statefulset/search-indexer',
      'indexer=registry.example.com/acme/platform/search-indexer:2.3.2',
    );
    expect(set.code).toBe(0);
    expect(
      (await rolloutStatus('statefulset/search-indexer', ...ns)).code,
    ).toBe(0);
    expect(await revisions()).toEqual([1, 2, 3]);
    const first = await kubectl(
      ...ns,
      'rollout',
      'history',
      'statefulset/search-indexer',
      '--revision=1',
    );
    expect(first.stdout).toContain(
      'registry.example.com/acme/platform/search-indexer:2.3.0',
    );
    const undone = await kubectl(
      ...ns,
      'rollout',
      'undo',
      'statefulset/search-indexer',
      '--to-revision=1',
    );
    expect(undone.stdout.trim()).toBe(
      'statefulset.apps/search-indexer rolled back',
    );
    expect(
      (await rolloutStatus('statefulset/search-indexer', ...ns)).code,
    ).toBe(0);
    expect(await revisions()).toEqual([2, 3, 4]);
    const pods = (
      await json(
        ...ns,
        'get',
        'pods',
        '-l',
        'app.kubernetes.io/name=search-indexer',
      )
    ).items;
    expect(pods.map((p: any) => p.spec.containers[0].image)).toEqual([
      'registry.example.com/acme/platform/search-indexer:2.3.0',
      'registry.example.com/acme/platform/search-indexer:2.3.0',
      'registry.example.com/acme/platform/search-indexer:2.3.0',
    ]);
    const revision = (
      await json(...ns, 'get', 'controllerrevisions')
    ).items.find((r: any) => r.revision === 4);
    expect(
      new Set(
        pods.map((p: any) => p.metadata.labels['controller-revision-hash']),
      ),
    ).toEqual(new Set([revision.metadata.name]));
  });

  it('kubectl rollout restart of a StatefulSet finishes rollout status', async () => {
    expect(
      (
        await kubectl(
          '-n',
          'search',
          'rollout',
          'restart',
          'statefulset/search-indexer',
        )
      ).code,
    ).toBe(0);
    const status = await rolloutStatus(
      'statefulset/search-indexer',
      '-n',
      'search',
    );
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('partitioned roll out complete');
  });

  it('kubectl scale deployment/x --replicas=5: the pods converge, then its HorizontalPodAutoscaler puts it back', async () => {
    sim().setClusterKnobs({ hpaSyncMs: 3000 });
    const scaled = await kubectl(
      'scale',
      'deployment/storefront-web',
      '--replicas=5',
    );
    expect(scaled.stdout.trim()).toBe('deployment.apps/storefront-web scaled');
    const status = await rolloutStatus('deployment/storefront-web');
    expect(status.code).toBe(0);
    const pods = (await json('get', 'pods')).items;
    expect(pods).toHaveLength(5);
    expect(pods.every((p: any) => p.status.phase === 'Running')).toBe(true);
    // storefront-web has an HPA (min 3): a manual scale does not last.
    const reverted = await kubectlStream(
      [
        '-n',
        'storefront',
        'get',
        'deployment/storefront-web',
        '--watch',
        '-o',
        'jsonpath={.spec.replicas}{"\\n"}',
      ],
      out => out.trim().split('\n').pop() === '3',
    );
    expect(reverted.trim().split('\n').pop()).toBe('3');
    const events = await kubectl(
      'get',
      'events',
      '--field-selector',
      'reason=SuccessfulRescale',
    );
    expect(events.stdout).toContain(
      'New size: 3; reason: All metrics below target',
    );
    expect((await rolloutStatus('deployment/storefront-web')).code).toBe(0);
  });

  it('kubectl delete pod waits for the graceful deletion; the ReplicaSet replaces the pod', async () => {
    const pods = (await json('get', 'pods')).items.map(
      (p: any) => p.metadata.name,
    );
    const deleted = await kubectl('delete', 'pod', pods[0]);
    expect(deleted.stdout.trim()).toBe(`pod "${pods[0]}" deleted`);
    const now = (await json('get', 'pods')).items.map(
      (p: any) => p.metadata.name,
    );
    expect(now).not.toContain(pods[0]);
    expect(now).toHaveLength(pods.length);
  });

  it('kubectl logs --timestamps --since, and --previous of a crashed container', async () => {
    const pod = (await json('get', 'pods')).items[0].metadata.name;
    const stamped = await kubectl('logs', pod, '--timestamps', '--since=1h');
    expect(stamped.code).toBe(0);
    expect(stamped.stdout.split('\n')[0]).toMatch(/^\d{4}-\d{2}-\d{2}T\S+Z /);
    const before = await kubectl('logs', pod, '--previous');
    expect(before.code).toBe(1);
    expect(before.stderr).toContain('previous terminated container');
    sim().cluster('prod-us').crashPod('storefront', pod);
    const previous = await kubectl('logs', pod, '--previous');
    expect(previous.code).toBe(0);
    expect(previous.stdout).toContain('level=fatal');
    const events = await kubectl(
      'get',
      'events',
      '--field-selector',
      `involvedObject.name=${pod}`,
    );
    expect(events.stdout.split('\n')[0].split(/\s{2,}/)).toEqual([
      'LAST SEEN',
      'TYPE',
      'REASON',
      'OBJECT',
      'MESSAGE',
    ]);
    expect(events.stdout).toMatch(
      new RegExp(
        `Warning\\s+BackOff\\s+pod/${pod}\\s+Back-off restarting failed container`,
      ),
    );
  });

  it('kubectl top pod and top node read metrics.k8s.io; without metrics-server: "Metrics API not available" (kubectl/pkg/cmd/top)', async () => {
    const pods = await kubectl('top', 'pod');
    expect(pods.stderr).toBe('');
    const [header, ...rows] = pods.stdout.trimEnd().split('\n');
    expect(header.trim().split(/\s{2,}/)).toEqual([
      'NAME',
      'CPU(cores)',
      'MEMORY(bytes)',
    ]);
    expect(rows).toHaveLength(3);
    for (const row of rows)
      expect(row).toMatch(/^storefront-web-\S+\s+\d+m\s+\d+Mi\s*$/);
    const containers = await kubectl(
      '-n',
      'checkout',
      'top',
      'pod',
      '--containers',
      '-l',
      'app.kubernetes.io/name=checkout-api',
    );
    expect(
      containers.stdout
        .trimEnd()
        .split('\n')
        .slice(1)
        .map(line => line.split(/\s+/)[1])
        .sort(),
    ).toEqual(['api', 'api', 'envoy', 'envoy']);
    const nodes = await kubectl('top', 'node');
    expect(
      nodes.stdout
        .split('\n')[0]
        .trim()
        .split(/\s{2,}/),
    ).toEqual(['NAME', 'CPU(cores)', 'CPU%', 'MEMORY(bytes)', 'MEMORY%']);
    expect(nodes.stdout).toMatch(/prod-us-pool-1\s+\d+m\s+\d+%\s+\d+Mi\s+\d+%/);
    sim().setClusterKnobs({ metricsApi: false });
    const off = await kubectl('top', 'pod');
    expect(off.code).toBe(1);
    expect(off.stderr.trim()).toBe('error: Metrics API not available');
  });

  it('kubectl auth can-i answers from the cluster RBAC', async () => {
    expect(
      (await kubectl('auth', 'can-i', 'delete', 'pods')).stdout.trim(),
    ).toBe('yes');
    const secrets = await kubectl('auth', 'can-i', 'list', 'secrets');
    expect(secrets.stdout.trim()).toBe('no');
    expect(secrets.code).toBe(1);
    sim().setClusterKnobs({ forbiddenActions: ['patch deployments'] });
    try {
      expect(
        (
          await kubectl('auth', 'can-i', 'patch', 'deployments.apps')
        ).stdout.trim(),
      ).toBe('no');
    } finally {
      sim().setClusterKnobs({ forbiddenActions: [] });
    }
  });

  it('kubectl get --watch (bounded) shows a deleted pod terminating and its replacement', async () => {
    const pods = (await json('get', 'pods')).items.map(
      (p: any) => p.metadata.name,
    );
    const watching = kubectlStream(
      ['-n', 'storefront', 'get', 'pods', '--watch'],
      out => out.includes('Terminating') && out.includes('ContainerCreating'),
    );
    await new Promise(resolve => setTimeout(resolve, 1000));
    await kubectl('delete', 'pod', pods[0], '--wait=false');
    const out = await watching;
    expect(out.split('\n')[0].split(/\s{2,}/)).toEqual([
      'NAME',
      'READY',
      'STATUS',
      'RESTARTS',
      'AGE',
    ]);
    expect(out).toMatch(new RegExp(`${pods[0]}\\s+[01]/1\\s+Terminating`));
  });

  it('kubectl annotate reconcile.fluxcd.io/requestedAt and kubectl patch spec.suspend behave like Flux', async () => {
    const flux = ['-n', 'flux-system'];
    const handled = async () =>
      (
        await kubectl(
          ...flux,
          'get',
          'kustomization/checkout-api',
          '-o',
          'jsonpath={.status.lastHandledReconcileAt}',
        )
      ).stdout;
    const annotate = (value: string) =>
      kubectl(
        ...flux,
        'annotate',
        '--overwrite',
        'kustomization/checkout-api',
        `reconcile.fluxcd.io/requestedAt=${value}`,
      );
    expect((await annotate('2026-11-23T10:00:00Z')).code).toBe(0);
    expect(await handled()).toBe('2026-11-23T10:00:00Z');
    const suspended = await kubectl(
      ...flux,
      'patch',
      'kustomization',
      'checkout-api',
      '--type=merge',
      '-p',
      '{"spec":{"suspend":true}}',
    );
    expect(suspended.stdout.trim()).toBe(
      'kustomization.kustomize.toolkit.fluxcd.io/checkout-api patched',
    );
    await annotate('2026-11-23T11:00:00Z');
    expect(await handled()).toBe('2026-11-23T10:00:00Z');
    await kubectl(
      ...flux,
      'patch',
      'kustomization',
      'checkout-api',
      '--type=merge',
      '-p',
      '{"spec":{"suspend":false}}',
    );
    expect(await handled()).toBe('2026-11-23T11:00:00Z');
  });
});

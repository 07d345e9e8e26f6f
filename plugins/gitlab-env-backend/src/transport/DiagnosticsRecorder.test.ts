import { DiagnosticsRecorder } from './DiagnosticsRecorder';

describe('DiagnosticsRecorder', () => {
  it('keeps the last 20 distinct failures per instance, newest first, a repeat moved up', () => {
    let now = 0;
    const recorder = new DiagnosticsRecorder(() => now);
    for (let i = 0; i < 25; i++) {
      now = i * 1000;
      recorder.failure(
        'gitlab.test',
        { code: 'NO_AGENT', message: `env ${i} has no agent` },
        `acme/app: env-${i}`,
      );
    }
    now = 99_000;
    recorder.failure(
      'gitlab.test',
      { code: 'NO_AGENT', message: 'env 10 has no agent' },
      'acme/app: env-10',
    );
    const failures = recorder.failures('gitlab.test');
    expect(failures).toHaveLength(20);
    expect(failures[0]).toMatchObject({
      context: 'acme/app: env-10',
      at: new Date(99_000).toISOString(),
    });
    expect(failures.filter(f => f.context === 'acme/app: env-10')).toHaveLength(
      1,
    );
    expect(recorder.failures('other.test')).toEqual([]);
  });

  it('lists the agents met, most recently seen first, with their last result', () => {
    const recorder = new DiagnosticsRecorder(() => 0);
    recorder.agentResult('gitlab.test', { id: '1', name: 'prod' }, 'ok');
    recorder.agentResult(
      'gitlab.test',
      { id: '2', name: 'lab' },
      'AGENT_NEVER_CONNECTED',
    );
    recorder.agentResult(
      'gitlab.test',
      { id: '1', name: 'prod' },
      'AGENT_NOT_CONNECTED',
    );
    expect(
      recorder.agents('gitlab.test').map(a => [a.name, a.lastResult]),
    ).toEqual([
      ['prod', 'AGENT_NOT_CONNECTED'],
      ['lab', 'AGENT_NEVER_CONNECTED'],
    ]);
  });

  it('writes an agent again only when its result, its time or the newest agent changed', () => {
    let now = 1_000;
    const recorder = new DiagnosticsRecorder(() => now);
    const prod = { id: '1', name: 'prod' };
    recorder.agentResult('gitlab.test', prod, 'ok');
    const [first] = recorder.agents('gitlab.test');
    // A burst of reads of one agent in one millisecond: nothing to write.
    recorder.agentResult('gitlab.test', prod, 'ok');
    expect(recorder.agents('gitlab.test')[0]).toBe(first);
    recorder.agentResult('gitlab.test', prod, 'UPSTREAM_TIMEOUT');
    expect(recorder.agents('gitlab.test')[0]).toMatchObject({
      lastResult: 'UPSTREAM_TIMEOUT',
      lastSeenAt: new Date(1_000).toISOString(),
    });
    now = 2_000;
    recorder.agentResult('gitlab.test', prod, 'UPSTREAM_TIMEOUT');
    expect(recorder.agents('gitlab.test')[0].lastSeenAt).toBe(
      new Date(2_000).toISOString(),
    );
    // Another agent in between: prod moves up again, in the same millisecond.
    recorder.agentResult('gitlab.test', { id: '2', name: 'lab' }, 'ok');
    recorder.agentResult('gitlab.test', prod, 'UPSTREAM_TIMEOUT');
    expect(recorder.agents('gitlab.test').map(a => a.name)).toEqual([
      'prod',
      'lab',
    ]);
  });
});

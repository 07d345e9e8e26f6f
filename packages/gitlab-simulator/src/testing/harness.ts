import { DEMO_TOKEN } from '../scenario/generate';
import { ScenarioMembership } from '../scenario/types';
import {
  RunningSimulator,
  SimulatorOptions,
  startGitlabSimulator,
} from '../server';

/** KAS's 20 s tunnel search, shortened so tests of a disconnected agent stay fast. */
export const TEST_TUNNEL_FIND_TIMEOUT_MS = 150;

/** Starts a simulator on a random port for one test file and closes it afterwards. */
export function useSimulator(options: SimulatorOptions = {}) {
  const ref: { current?: RunningSimulator } = {};
  beforeAll(async () => {
    ref.current = await startGitlabSimulator({
      port: 0,
      ...options,
      kasTunnels: {
        findTimeoutMs: TEST_TUNNEL_FIND_TIMEOUT_MS,
        ...options.kasTunnels,
      },
    });
  });
  afterAll(async () => {
    await ref.current?.close();
  });
  return () => ref.current!;
}

export async function graphql(
  sim: RunningSimulator,
  query: string,
  variables?: Record<string, unknown>,
  token: string | null = DEMO_TOKEN,
) {
  const response = await fetch(sim.graphqlUrl, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

/** A GitLab REST request (`/api/v4` + path) with a PRIVATE-TOKEN; JSON bodies parsed, others as text. */
export async function restJson(
  sim: RunningSimulator,
  path: string,
  token = DEMO_TOKEN,
  method = 'GET',
) {
  const response = await fetch(`${sim.apiUrl}${path}`, {
    method,
    headers: { 'PRIVATE-TOKEN': token },
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: (response.headers.get('content-type')?.includes('json')
      ? JSON.parse(text)
      : text) as any,
  };
}

/** A request through the KAS proxy as `pat:<agentId>:<token>`. */
export function kas(
  sim: RunningSimulator,
  agentId: number,
  path: string,
  init: RequestInit = {},
  token = DEMO_TOKEN,
) {
  return fetch(`${sim.kasProxyUrl}${path}`, {
    ...init,
    headers: {
      Authorization: `Bearer pat:${agentId}:${token}`,
      ...(init.headers as Record<string, string>),
    },
  });
}

export async function kasJson(
  sim: RunningSimulator,
  agentId: number,
  path: string,
  init: RequestInit = {},
) {
  const response = await kas(sim, agentId, path, init);
  return {
    status: response.status,
    body: (await response.json()) as any,
    headers: response.headers,
  };
}

/** A merge (or another kind of) PATCH through the KAS proxy, answered as JSON. */
export function kasPatch(
  sim: RunningSimulator,
  agentId: number,
  path: string,
  patch: unknown,
  type: 'merge' | 'strategic-merge' | 'json' = 'merge',
) {
  return kasJson(sim, agentId, path, {
    method: 'PATCH',
    headers: { 'Content-Type': `application/${type}-patch+json` },
    body: JSON.stringify(patch),
  });
}

/** Lists `path`, then opens a watch from the list's resourceVersion ("Efficient detection of changes"). */
export async function watchFromList(
  sim: RunningSimulator,
  agentId: number,
  path: string,
  params = 'timeoutSeconds=20',
) {
  const list = (await kasJson(sim, agentId, path)).body;
  const separator = path.includes('?') ? '&' : '?';
  return kas(
    sim,
    agentId,
    `${path}${separator}watch=1&resourceVersion=${list.metadata.resourceVersion}&${params}`,
  );
}

/** Reads NDJSON watch events from a streaming response until `until` is satisfied. */
export async function readWatchEvents(
  response: Response,
  until: (events: any[]) => boolean,
): Promise<any[]> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const events: any[] = [];
  let buffer = '';
  while (!until(events)) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let newline = buffer.indexOf('\n');
    while (newline >= 0) {
      events.push(JSON.parse(buffer.slice(0, newline)));
      buffer = buffer.slice(newline + 1);
      newline = buffer.indexOf('\n');
    }
  }
  await reader.cancel();
  return events;
}

export const PROD_US = 1;
export const PROD_EU = 2;
export const NONPROD = 3;
export const RESTRICTED = 4;
export const EDGE = 5;

/** Polls `read` until `ok` holds (at most 5 s), for what controllers and runners do on timers. */
export async function eventually<T>(
  read: () => Promise<T>,
  ok: (value: T) => boolean,
) {
  for (let i = 0; i < 100; i++) {
    const value = await read();
    if (ok(value)) return value;
    await new Promise(resolve => setTimeout(resolve, 50));
  }
  return read();
}

/** Runs `body` while the scenario has one more membership (e.g. a guest). */
export async function withMembership(
  sim: RunningSimulator,
  membership: ScenarioMembership,
  body: () => Promise<void>,
) {
  sim.scenario.memberships.push(membership);
  try {
    await body();
  } finally {
    sim.scenario.memberships.splice(
      sim.scenario.memberships.indexOf(membership),
      1,
    );
  }
}

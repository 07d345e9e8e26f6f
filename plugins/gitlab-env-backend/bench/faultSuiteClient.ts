// The fault suite's client (bench/fault-suite.ts): one mode's requests, 8
// at a time, each answer classified, in a worker thread of its own. In the
// backend's thread, the client's own work (reading and parsing answers of
// up to several MB, looking for Secret values in them) counted in the
// event-loop delay measured for the backend.
import { HealthSummary } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { parentPort, Worker, workerData } from 'node:worker_threads';
import {
  badgesOf,
  CiAccessRequest,
  ciAccessAnswerProblem,
  classify,
  isDefiniteButWrong,
  Outcome,
} from '../src/__testUtils__/faultSuite';

export interface ModeRequests {
  base: string;
  targets: string[];
  /** Instead of `targets`: CI access requests and the decision each must get. */
  requests?: CiAccessRequest[];
  count: number;
  concurrency: number;
  hangAfterMs: number;
  baseline: Array<[string, HealthSummary]>;
  secrets: string[];
}

export interface ModeAnswers {
  outcomes: Record<Outcome, number>;
  durations: number[];
  hangs: number;
  wrong: number;
  leaks: number;
}

/**
 * A request's status and body, or a rejection once `ms` have passed. The
 * client's own timer decides, not only the fetch's abort signal: with an
 * aborted signal, Node 20's fetch has left a body read pending for good,
 * which kept the suite from ever finishing a mode.
 */
async function answerWithin(url: string, ms: number) {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error(`no answer after ${ms} ms`));
    }, ms);
  });
  const answer = fetch(url, { signal: controller.signal }).then(
    async response => ({
      status: response.status,
      text: await response.text(),
    }),
  );
  // Once the timer has decided, a late failure of the fetch is not a crash.
  answer.catch(() => undefined);
  try {
    return await Promise.race([answer, expired]);
  } finally {
    clearTimeout(timer);
  }
}

async function sendMode(mode: ModeRequests): Promise<ModeAnswers> {
  const baseline = new Map(mode.baseline);
  const answers: ModeAnswers = {
    outcomes: { ok: 0, partial: 0, 'typed error': 0, untyped: 0 },
    durations: [],
    hangs: 0,
    wrong: 0,
    leaks: 0,
  };
  let next = 0;
  const loop = async () => {
    while (next < mode.count) {
      const n = next++;
      const expected = mode.requests?.[n % mode.requests.length];
      const path = expected?.path ?? mode.targets[n % mode.targets.length];
      const started = performance.now();
      try {
        const { status, text } = await answerWithin(
          `${mode.base}${path}`,
          mode.hangAfterMs,
        );
        answers.durations.push(performance.now() - started);
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        answers.outcomes[classify(status, body)] += 1;
        if (mode.secrets.some(secret => text.includes(secret))) answers.leaks++;
        if (expected && ciAccessAnswerProblem(expected, status, body))
          answers.wrong++;
        for (const badge of badgesOf(path, body)) {
          if (isDefiniteButWrong(badge.health, baseline.get(badge.key)))
            answers.wrong++;
        }
      } catch {
        answers.hangs++;
      }
    }
  };
  await Promise.all(Array.from({ length: mode.concurrency }, loop));
  return answers;
}

/** The client in a worker thread, loaded (its start costs the backend's thread nothing once this resolves). */
export async function startClient() {
  // The worker does not inherit the --import tsx hook: it registers it.
  const worker = new Worker(
    `require('tsx/cjs'); require(${JSON.stringify(__filename)});`,
    { eval: true, workerData: { client: true } },
  );
  await new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
  });
  return {
    /** Sends one mode's requests and answers what came of them. */
    send(mode: ModeRequests): Promise<ModeAnswers> {
      return new Promise<ModeAnswers>((resolve, reject) => {
        const onMessage = (message: {
          type: string;
          answers?: ModeAnswers;
        }) => {
          if (message.type !== 'done') return;
          worker.off('message', onMessage);
          worker.off('error', reject);
          resolve(message.answers!);
        };
        worker.on('message', onMessage);
        worker.once('error', reject);
        worker.postMessage(mode);
      });
    },
    close: () => worker.terminate(),
  };
}

if (parentPort && workerData?.client) {
  const port = parentPort;
  port.on('message', (mode: ModeRequests) =>
    sendMode(mode).then(answers => port.postMessage({ type: 'done', answers })),
  );
  port.postMessage({ type: 'ready' });
}

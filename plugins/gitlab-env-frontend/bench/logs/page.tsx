/**
 * The page the log benchmark opens in Chromium: the plugin's LogViewer over
 * the real GitlabEnvClient, or the same lines rendered unbatched (a state
 * update per chunk re-rendering every line) as the baseline. The bench's
 * server streams lines that carry the time they were sent.
 */
import * as React from 'react';
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { GitlabEnvClient } from '../../src/api/GitlabEnvClient';
import { LogViewer, OpenLogs } from '../../src/components/logs/LogViewer';

const client = new GitlabEnvClient({
  discoveryApi: {
    getBaseUrl: async () => `${window.location.origin}/api/gitlab-env`,
  },
  fetchApi: { fetch: (input, init) => window.fetch(input, init) },
});
const ENTITY = { kind: 'Component', namespace: 'default', name: 'bench' };
const POD = {
  name: 'web-1',
  object: {
    apiVersion: 'v1',
    kind: 'Pod',
    spec: { containers: [{ name: 'app' }] },
  },
};

interface Result {
  firstChunkMs?: number;
  firstLineMs?: number;
  lagsMs: number[];
  frames: number;
  followMs: number;
  shownLines: number;
}

/** Marks the first chunk's arrival: the raw stream, before any rendering. */
let firstChunkAt: number | undefined;
let mountedAt = 0;

const openLogs: OpenLogs = (source, query, handlers, signal) =>
  client.streamPodLogs(
    ENTITY,
    'production',
    { ...query, pod: source.pod, container: source.container },
    {
      onOpen: handlers.onOpen,
      onText: text => {
        firstChunkAt ??= performance.now();
        handlers.onText(text);
      },
    },
    { signal },
  );

/** The baseline: every chunk re-renders every line, as a naive viewer does. */
function UnbatchedViewer() {
  const [lines, setLines] = useState<string[]>([]);
  useEffect(() => {
    const controller = new AbortController();
    let partial = '';
    openLogs(
      { pod: POD.name, container: 'app' },
      { tailLines: 500, follow: true, timestamps: true },
      {
        onText: text => {
          const parts = (partial + text).split('\n');
          partial = parts.pop() ?? '';
          setLines(previous => [...previous, ...parts]);
        },
      },
      controller.signal,
    ).catch(() => {});
    return () => controller.abort();
  }, []);
  return (
    <div
      role="log"
      style={{
        height: 600,
        overflow: 'auto',
        fontFamily: 'monospace',
        fontSize: 12,
      }}
    >
      {lines.map((line, index) => (
        <div key={index} className="log-line">
          {line}
        </div>
      ))}
    </div>
  );
}

/** The newest line on screen: the last row of the log's last block. */
function newestShownLine(): Element | null {
  const log = document.querySelector('[role="log"]');
  let element = log?.lastElementChild ?? null;
  while (element && !element.classList.contains('log-line')) {
    element = element.lastElementChild;
  }
  return element;
}

function measure(followMs: number): Promise<Result> {
  return new Promise(resolve => {
    const result: Result = { lagsMs: [], frames: 0, followMs, shownLines: 0 };
    let followStart: number | undefined;
    const frame = () => {
      const now = performance.now();
      const newest = newestShownLine();
      if (newest && result.firstLineMs === undefined) {
        result.firstLineMs = now - mountedAt;
        result.firstChunkMs = (firstChunkAt ?? now) - mountedAt;
        followStart = now;
      }
      if (newest && followStart !== undefined) {
        result.frames += 1;
        const sent = /sent=(\d+)/.exec(newest.textContent ?? '');
        if (sent) result.lagsMs.push(Date.now() - Number(sent[1]));
        if (now - followStart >= followMs) {
          result.shownLines = document.querySelectorAll('.log-line').length;
          resolve(result);
          return;
        }
      }
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}

(window as any).runBench = (mode: 'viewer' | 'unbatched', followMs: number) => {
  firstChunkAt = undefined;
  const container = document.getElementById('root')!;
  container.style.height = '700px';
  container.style.display = 'flex';
  container.style.flexDirection = 'column';
  mountedAt = performance.now();
  createRoot(container).render(
    mode === 'viewer' ? (
      <LogViewer pods={[POD]} openLogs={openLogs} />
    ) : (
      <UnbatchedViewer />
    ),
  );
  return measure(followMs);
};

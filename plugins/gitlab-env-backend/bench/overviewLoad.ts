import { OverviewStreamLine } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import http from 'node:http';

export interface LoadTimes {
  /** The first entity line that carries rows. */
  firstRowsMs: number;
  /** Every entity listed: all rows are on the page, health still pending. */
  allRowsMs: number;
  /** The done line: every row settled with its health. */
  allHealthMs: number;
  rows: number;
  healthLines: number;
  /** Health lines that carry an error, by error code. */
  errors: Record<string, number>;
}

/** Loads the overview stream once, timing its first rows, all rows and all health. */
export async function loadOverview(baseUrl: string): Promise<LoadTimes> {
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  const times: LoadTimes = {
    firstRowsMs: NaN,
    allRowsMs: NaN,
    allHealthMs: NaN,
    rows: 0,
    healthLines: 0,
    errors: {},
  };
  let entities = Infinity;
  let entityLines = 0;
  const onLine = (line: OverviewStreamLine) => {
    if (line.type === 'start') entities = line.entities;
    if (line.type === 'entity') {
      entityLines += 1;
      times.rows += line.rows.length;
      if (line.rows.length > 0 && Number.isNaN(times.firstRowsMs))
        times.firstRowsMs = elapsed();
      if (entityLines === entities) times.allRowsMs = elapsed();
    }
    if (line.type === 'health') {
      times.healthLines += 1;
      for (const { code } of line.errors)
        times.errors[code] = (times.errors[code] ?? 0) + 1;
    }
    if (line.type === 'done') times.allHealthMs = elapsed();
  };
  await new Promise<void>((resolve, reject) => {
    http
      // A connection of its own, closed with the stream: a kept-alive socket
      // the server times out while the benchmark computes its figures is
      // reset under the next load's request.
      .get(`${baseUrl}/api/gitlab-env/overview`, { agent: false }, response => {
        let buffered = '';
        response.setEncoding('utf8');
        response.on('data', chunk => {
          buffered += chunk;
          const lines = buffered.split('\n');
          buffered = lines.pop() ?? '';
          lines.filter(Boolean).forEach(line => onLine(JSON.parse(line)));
        });
        response.on('end', () => resolve());
        response.on('error', reject);
      })
      .on('error', reject);
  });
  return times;
}

import { Entity, stringifyEntityRef } from '@backstage/catalog-model';
import { OverviewStreamLine } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import express from 'express';
import Router from 'express-promise-router';
import pLimit from 'p-limit';
import { GitlabEnvironmentsService } from '../facade';
import { route, RouteDeps } from '../http/route';
import { deadlineSignal } from '../transport/deadline';
import { listEntityRows } from './entityRows';
import { HealthReads } from './healthByAgent';

export interface OverviewRouterOptions extends RouteDeps {
  service: GitlabEnvironmentsService;
  /** Entities listed at once (one GitLab request each when cold). */
  entityConcurrency?: number;
  /**
   * Environments of one agent read at once on their own (agents are read
   * side by side), for the rows the read-ahead could not take; the others
   * are written as their read-ahead answers settle. The service bounds
   * upstream requests per instance and per agent anyway, so this only
   * bounds how far ahead reads are queued.
   */
  healthConcurrency?: number;
  /**
   * The whole stream ends by then: rows whose health is not read yet get an
   * UPSTREAM_TIMEOUT line, and `done` follows.
   */
  deadlineMs?: number;
}

/**
 * `GET /overview`: every environment of every annotated entity the caller
 * may read, as NDJSON (see OverviewStreamLine). Streaming rather than pages:
 * one request keeps the walk, the permission decisions and the read order
 * on the server, and the page shows each line as soon as it is written,
 * instead of waiting for the slowest entity of a page.
 */
export function createOverviewRouter(
  options: OverviewRouterOptions,
): express.Router {
  const { service } = options;
  const router = Router();

  router.get(
    '/overview',
    route(
      options,
      {
        audit: { eventId: 'overview-read' },
        params: () => ({}),
        // The catalog walk, authorized a page at a time.
        entities: 'catalog',
        permission: {},
        locate: 'none',
      },
      async (context, _req, res) => {
        const started = Date.now();
        const allowed: Entity[] = context.entities.flatMap(e =>
          'entity' in e ? [e.entity] : [],
        );
        let closed = false;
        const left = new AbortController();
        // The response, not the request: a request's 'close' only means its body was read.
        res.on('close', () => {
          closed = true;
          left.abort();
        });
        // Reads stop when the client leaves or the stream's deadline passes.
        const { signal } = deadlineSignal(options.deadlineMs ?? 60_000, [
          left.signal,
        ]);
        res.status(200);
        res.setHeader('content-type', 'application/x-ndjson; charset=utf-8');
        res.setHeader('cache-control', 'no-store');
        // The lines written in one turn of the event loop go out as one
        // chunk: one buffer and one system call, not one of each per line.
        let pending: string[] | undefined;
        const flush = () => {
          const lines = pending;
          pending = undefined;
          // A stream that failed was ended by the route: nothing is written after.
          if (lines && !closed && !res.writableEnded) res.write(lines.join(''));
        };
        const write = (line: OverviewStreamLine) => {
          if (closed) return;
          if (!pending) {
            pending = [];
            setImmediate(flush);
          }
          pending.push(`${JSON.stringify(line)}\n`);
        };
        write({ type: 'start', entities: allowed.length });

        // Listing environments costs one GitLab request per project, so
        // every row (tier, folder, agent, last deployment) is on the page in
        // a few round trips; reading resources costs a list per kind, so
        // health follows. Each entity's pending rows are read as soon as
        // they are listed: an agent's lists across its cluster start with
        // its first rows and cover the later ones (HealthReads), so they
        // overlap the listing instead of waiting for its last row.
        const entityLimit = pLimit(options.entityConcurrency ?? 64);
        const health = new HealthReads(service, write, {
          concurrency: options.healthConcurrency ?? 16,
          signal,
          stopped: () => closed,
        });
        let rows = 0;
        await Promise.all(
          allowed.map(entity =>
            entityLimit(async () => {
              if (closed) return;
              const entityRows = await listEntityRows(service, entity, signal);
              rows += entityRows.length;
              write({
                type: 'entity',
                entityRef: stringifyEntityRef(entity),
                rows: entityRows,
              });
              health.add(
                entityRows
                  .filter(row => row.pending && row.environment)
                  .map(row => ({
                    entity,
                    environment: row.environment!,
                    instance: row.project?.instance,
                  })),
              );
            }),
          ),
        );
        // Each agent's rows on their own: one that is slow or absent holds
        // only its rows, never the others' badges.
        await health.finish();
        write({
          type: 'done',
          entities: allowed.length,
          rows,
          elapsedMs: Date.now() - started,
        });
        flush();
        res.end();
        return { rows };
      },
    ),
  );

  return router;
}

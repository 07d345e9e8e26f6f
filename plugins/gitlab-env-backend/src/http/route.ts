import {
  AuditorService,
  HttpAuthService,
  LoggerService,
} from '@backstage/backend-plugin-api';
import { JsonObject } from '@backstage/types';
import express from 'express';
import { failure } from '../errors';
import { RequestPipeline, RouteContext, RouteSpec } from './pipeline';
import { gitlabEnvErrorHandler } from './errorHandler';

/** The largest JSON body a route takes. */
const MAX_BODY = '64kb';
const jsonBody = express.json({ limit: MAX_BODY });
/** What body-parser's refusals (its error `type`) mean for the caller. */
const BODY_REFUSALS: Record<string, string> = {
  'entity.too.large': `The request body is larger than ${MAX_BODY}.`,
  'entity.parse.failed': 'The request body is not JSON.',
};

/** The request's JSON body, read inside the pipeline: a refusal is the caller's mistake, audited. */
function readJsonBody(
  req: express.Request,
  res: express.Response,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    jsonBody(req, res, (error?: unknown) => {
      if (!error) {
        resolve(req.body);
        return;
      }
      const type = String((error as { type?: unknown }).type);
      reject(
        failure(
          'INVALID_REQUEST',
          BODY_REFUSALS[type] ??
            'The request body could not be read (its encoding or character set).',
          { hint: 'Send a JSON body as the page does.' },
        ),
      );
    });
  });
}

/** Aborted when the client goes away before the answer is written: its reads then stop. */
export function clientSignal(res: express.Response): AbortSignal {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}

function headersOf(req: express.Request): Record<string, string | undefined> {
  return Object.fromEntries(
    Object.entries(req.headers).map(([name, value]) => [
      name,
      Array.isArray(value) ? value[0] : value,
    ]),
  );
}

/** How routers reach the pipeline: the express side of it. */
export interface RouteDeps {
  pipeline: RequestPipeline;
  httpAuth: HttpAuthService;
}

/**
 * The express adapter of the request pipeline: the caller's credentials
 * from `httpAuth`, the parameters from the path, query and (when the
 * route takes one) JSON body, the request for the auditor. The handler
 * answers on `res` and returns what the audit record says of the outcome.
 */
export function route<P>(
  deps: RouteDeps,
  spec: RouteSpec<P>,
  handler: (
    context: RouteContext<P>,
    req: express.Request,
    res: express.Response,
  ) => Promise<JsonObject | void>,
): express.RequestHandler {
  return async (req, res, next) => {
    try {
      const credentials = await deps.httpAuth.credentials(req);
      await deps.pipeline.run(
        spec,
        {
          credentials,
          request: req,
          signal: clientSignal(res),
          raw: {
            path: req.params,
            query: req.query as Record<string, unknown>,
            headers: headersOf(req),
            ...(spec.body && { body: () => readJsonBody(req, res) }),
          },
        },
        context => handler(context, req, res),
      );
    } catch (error) {
      next(error);
    }
  };
}

/** Every router's last handler: typed answers, and an audit record for what never reached the pipeline. */
export function routeErrors(
  logger: LoggerService,
  auditor: AuditorService,
): express.ErrorRequestHandler {
  return gitlabEnvErrorHandler(logger, auditor);
}

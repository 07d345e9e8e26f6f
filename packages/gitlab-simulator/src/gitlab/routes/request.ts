import { IncomingMessage, ServerResponse } from 'http';
import { ScenarioProject } from '../../scenario/types';
import { sendJson } from '../../http/respond';
import { Caller, GitlabDirectory } from '../access';
import { EntityContext } from '../entities';
import { DeployRunner } from '../jobs';
import { ParamError } from '../restParams';

/** One REST request under `/projects/:id`, for the routes of this folder. */
export interface ProjectRequest {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  method: string;
  /** The path after `/projects/:id`. */
  rest: string;
  project: ScenarioProject;
  directory: GitlabDirectory;
  caller?: Caller;
  entities: EntityContext;
  runner: DeployRunner;
  paginate<T>(items: T[]): { page: T[]; headers: Record<string, string> };
}

/** A route: handles the request and answers true, or answers false when the path is not its. */
export type ProjectRoute = (request: ProjectRequest) => boolean;

/** Runs a route body, answering Grape's 400 for a parameter it refused. */
export function withParams(request: ProjectRequest, body: () => void): boolean {
  try {
    body();
  } catch (error) {
    if (!(error instanceof ParamError)) throw error;
    sendJson(request.res, 400, error.body);
  }
  return true;
}

/** Answers one page of `items` as `toJson` renders them, with GitLab's pagination headers. */
export function sendPage<T>(
  request: ProjectRequest,
  items: T[],
  toJson: (item: T) => unknown,
) {
  const { page, headers } = request.paginate(items);
  sendJson(request.res, 200, page.map(toJson), headers);
}

/**
 * GitLab-managed Kubernetes resources (GitLab 17.9+, GA 18.1):
 * https://docs.gitlab.com/user/clusters/agent/managed_kubernetes_resources/
 * Templates live in `.gitlab/agents/<agent>/environment_templates/<name>.yaml`
 * and use Go template fields such as `{{ .environment.slug }}`.
 */

/** The namespace name of GitLab's built-in default template. */
export const DEFAULT_MANAGED_NAMESPACE_TEMPLATE =
  '{{ .environment.slug }}-{{ .project.id }}-{{ .agent.id }}';

/**
 * `delete_resources` of an environment template: `on_stop` in GitLab's
 * default template (gitlab-org/gitlab!188024); `never` otherwise.
 */
export type DeleteResourcesPolicy = 'on_stop' | 'never';

export interface EnvironmentTemplateContext {
  environment: {
    id?: number;
    name: string;
    slug: string;
    tier?: string;
    url?: string;
  };
  project: { id: number; slug?: string; path: string };
  agent: { id: number; name: string };
}

/** Label GitLab puts on every object it manages for an environment. */
export function managedResourceLabel(
  environmentSlug: string,
  projectId: number | string,
  agentId: number | string,
): string {
  return `agent.gitlab.com/env-${environmentSlug}-${projectId}-${agentId}`;
}

/** Parses `agent.gitlab.com/env-<slug>-<projectId>-<agentId>` back; slugs may contain dashes. */
export function parseManagedResourceLabel(
  label: string,
): { environmentSlug: string; projectId: number; agentId: number } | undefined {
  const m = /^agent\.gitlab\.com\/env-([a-z0-9-]+)-(\d+)-(\d+)$/.exec(label);
  if (!m) return undefined;
  return {
    environmentSlug: m[1],
    projectId: Number(m[2]),
    agentId: Number(m[3]),
  };
}

function lookup(context: EnvironmentTemplateContext, path: string[]): unknown {
  let value: unknown = context;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/**
 * Renders the `{{ .a.b }}` field references of a template string; any
 * other template action is reported rather than guessed at.
 */
export function renderTemplateString(
  template: string,
  context: EnvironmentTemplateContext,
): { value: string } | { error: string } {
  let error: string | undefined;
  const value = template.replace(
    /\{\{-?\s*(.*?)\s*-?\}\}/g,
    (whole, body: string) => {
      const m = /^\.([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)$/.exec(body);
      const resolved = m ? lookup(context, m[1].split('.')) : undefined;
      if (
        resolved === undefined ||
        resolved === null ||
        typeof resolved === 'object'
      ) {
        error ??= `cannot render ${whole}: only fields such as {{ .environment.slug }}, {{ .project.id }} and {{ .agent.id }} are supported`;
        return '';
      }
      return String(resolved);
    },
  );
  return error ? { error } : { value };
}

// The code and configuration edits of the README's install section, applied
// to an app made by @backstage/create-app. Each edit fails loudly when the
// template no longer has the line it anchors on, so a template change shows
// up here before an adopter meets it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

function edit(file, change) {
  const before = readFileSync(file, 'utf8');
  const after = change(before);
  if (after === before) throw new Error(`no change made to ${file}`);
  writeFileSync(file, after);
}

function insertBefore(text, anchor, insertion, file) {
  const at = text.indexOf(anchor);
  if (at < 0)
    throw new Error(`${file} no longer contains ${JSON.stringify(anchor)}`);
  return text.slice(0, at) + insertion + text.slice(at);
}

/** README "Backend": one line in packages/backend/src/index.ts. */
export function wireBackend(appDir) {
  const file = join(appDir, 'packages', 'backend', 'src', 'index.ts');
  edit(file, text =>
    insertBefore(
      text,
      'backend.start();',
      "backend.add(import('@gitlab-env/backstage-plugin-gitlab-env-backend'));\n\n",
      file,
    ),
  );
}

export const CLASSIC_IMPORT = `import {
  EntityGitlabEnvContent,
  isGitlabEnvAvailable,
} from '@gitlab-env/backstage-plugin-gitlab-env';
`;

export const CLASSIC_ENTITY_ROUTE = `    <EntityLayout.Route
      path="/gitlab-env"
      title="Environments"
      if={isGitlabEnvAvailable}
    >
      <EntityGitlabEnvContent />
    </EntityLayout.Route>

`;

/**
 * README "Frontend, classic app": the tab beside CI/CD on the service and
 * website entity pages, and the overview page's route.
 */
export function wireClassicApp(appPackageDir) {
  const entityPage = join(
    appPackageDir,
    'src',
    'components',
    'catalog',
    'EntityPage.tsx',
  );
  edit(entityPage, text => {
    let out = CLASSIC_IMPORT + text;
    for (const page of ['const serviceEntityPage', 'const websiteEntityPage']) {
      const start = out.indexOf(page);
      if (start < 0) throw new Error(`${entityPage} has no ${page}`);
      const anchor = '    <EntityLayout.Route path="/ci-cd"';
      const at = out.indexOf(anchor, start);
      if (at < 0) throw new Error(`${entityPage}: ${page} has no CI/CD tab`);
      out = out.slice(0, at) + CLASSIC_ENTITY_ROUTE + out.slice(at);
    }
    return out;
  });
  const app = join(appPackageDir, 'src', 'App.tsx');
  edit(app, text =>
    insertBefore(
      "import { GitlabEnvOverviewPage } from '@gitlab-env/backstage-plugin-gitlab-env';\n" +
        text,
      '  </FlatRoutes>',
      '    <Route path="/gitlab-env" element={<GitlabEnvOverviewPage />} />\n',
      app,
    ),
  );
}

/** README "app-config.yaml", plus the test's own ports and catalog. */
export function wireConfig(appDir, { root, simulatorPort, backendPort }) {
  const appConfig = join(appDir, 'app-config.yaml');
  edit(
    appConfig,
    text =>
      `${text}
gitlabEnv:
  instances:
    - host: gitlab.example.com
      baseUrl: http://localhost:${simulatorPort}
      token: \${GITLAB_ENV_TOKEN} # read_api + k8s_proxy scopes
`,
  );
  const url = `http://localhost:${backendPort}`;
  const catalog = ['org', 'systems', 'components']
    .map(
      name =>
        `    - type: file\n      target: ${join(
          root,
          'examples',
          'catalog',
          `${name}.yaml`,
        )}\n`,
    )
    .join('');
  const overlay =
    appExtra => `# The adopter test's ports (the backend serves the built app) and the
# example catalog whose components carry GitLab annotations.
app:
  baseUrl: ${url}${appExtra}
backend:
  baseUrl: ${url}
  listen:
    port: ${backendPort}
  cors:
    origin: ${url}
catalog:
  rules:
    - allow: [Component, System, API, Resource, Location, Group, User]
  locations:
${catalog}`;
  writeFileSync(join(appDir, 'app-config.adopter-test.yaml'), overlay(''));
  // the classic app, built from packages/app-legacy, served by the same backend
  writeFileSync(
    join(appDir, 'app-config.adopter-test-legacy.yaml'),
    overlay('\n  packageName: app-legacy'),
  );
}

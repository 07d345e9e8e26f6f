import { readFileSync } from 'fs';
import { join, resolve } from 'path';
import { parseAllDocuments } from 'yaml';
import { parseLabelSelector } from '../cluster/selectors';
import { DEFAULT_SCENARIO_DIR, loadDefaultScenario } from './load';
import { scenarioCatalogEntities } from './generate';

/** The demo catalog (examples/catalog) must find its projects in the default scenario. */
describe('the default scenario and the demo catalog', () => {
  const scenario = loadDefaultScenario();
  const components = parseAllDocuments(
    readFileSync(
      join(resolve(DEFAULT_SCENARIO_DIR, '../../catalog'), 'components.yaml'),
      'utf8',
    ),
  )
    .map(doc => doc.toJS())
    .filter(entity => entity?.kind === 'Component');

  it('resolves every GitLab annotation of the catalog to a project with environments', () => {
    const annotated = components.filter(
      c =>
        c.metadata.annotations?.['gitlab.com/project-slug'] ||
        c.metadata.annotations?.['gitlab.com/project-id'],
    );
    expect(annotated.map(c => c.metadata.name)).toEqual([
      'storefront',
      'checkout-api',
      'notifications',
      'search-indexer',
    ]);
    for (const component of annotated) {
      const { 'gitlab.com/project-slug': slug, 'gitlab.com/project-id': id } =
        component.metadata.annotations;
      const project = scenario.projects.find(
        p => p.fullPath === slug || String(p.id) === id,
      );
      expect(project?.environments.length).toBeGreaterThan(0);
    }
  });

  it('gives the label selector of notifications something to keep and something to drop', () => {
    const notifications = components.find(
      c => c.metadata.name === 'notifications',
    );
    const selects = parseLabelSelector(
      notifications.metadata.annotations['gitlab-env/label-selector'],
    );
    const deployments = scenario.clusters
      .find(c => c.agent === 'nonprod')!
      .objects.filter(
        o =>
          o.kind === 'Deployment' &&
          o.metadata.namespace === 'notifications-dev',
      );
    expect(deployments.filter(selects).map(d => d.metadata.name)).toEqual([
      'notifications-api',
      'notifications-worker',
    ]);
    expect(
      deployments.filter(d => !selects(d)).map(d => d.metadata.name),
    ).toEqual(['mailhog']);
  });

  it('derives the same component names as the catalog', () => {
    expect(scenarioCatalogEntities(scenario).map(e => e.metadata.name)).toEqual(
      ['storefront', 'checkout-api', 'notifications', 'search-indexer'],
    );
  });
});

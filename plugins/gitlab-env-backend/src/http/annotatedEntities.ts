import { BackstageCredentials } from '@backstage/backend-plugin-api';
import { CATALOG_FILTER_EXISTS } from '@backstage/catalog-client';
import { Entity } from '@backstage/catalog-model';
import { CatalogService } from '@backstage/plugin-catalog-node';
import {
  GITLAB_PROJECT_ID_ANNOTATION,
  GITLAB_PROJECT_SLUG_ANNOTATION,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';

const ENTITY_FIELDS = [
  'kind',
  'metadata.name',
  'metadata.namespace',
  'metadata.title',
  'metadata.annotations',
  'spec.owner',
  'spec.system',
];

/** Every catalog entity with a GitLab project annotation, one catalog page at a time. */
export async function* annotatedEntities(
  catalog: CatalogService,
  credentials: BackstageCredentials,
): AsyncGenerator<Entity[]> {
  let cursor: string | undefined;
  do {
    const page = await catalog.queryEntities(
      cursor
        ? { cursor, limit: 500 }
        : {
            filter: [
              {
                [`metadata.annotations.${GITLAB_PROJECT_SLUG_ANNOTATION}`]:
                  CATALOG_FILTER_EXISTS,
              },
              {
                [`metadata.annotations.${GITLAB_PROJECT_ID_ANNOTATION}`]:
                  CATALOG_FILTER_EXISTS,
              },
            ],
            fields: ENTITY_FIELDS,
            limit: 500,
          },
      { credentials },
    );
    yield page.items;
    cursor = page.pageInfo.nextCursor;
  } while (cursor);
}

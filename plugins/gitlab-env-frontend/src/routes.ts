import { createRouteRef } from '@backstage/core-plugin-api';

/** The entity tab. @public */
export const rootRouteRef = createRouteRef({ id: 'gitlab-env' });

/** The portal-wide deployment overview page. @public */
export const overviewRouteRef = createRouteRef({ id: 'gitlab-env:overview' });

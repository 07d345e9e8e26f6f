import { ResourceEdgeType } from '@gitlab-env/backstage-plugin-gitlab-env-common';

export interface EdgeStyle {
  label: string;
  color: string;
  dash?: string;
  animated?: boolean;
}

/** How each relation is drawn; the legend under the graph uses the same table. */
export const EDGE_STYLES: Record<ResourceEdgeType, EdgeStyle> = {
  owns: { label: 'owns', color: '#8c9aa5' },
  manages: { label: 'manages (Flux)', color: '#9575cd' },
  selects: { label: 'selects', color: '#0dadea', dash: '6 4' },
  routes: { label: 'routes', color: '#18be94', animated: true },
  scales: { label: 'scales', color: '#f59f00', dash: '2 4' },
  mounts: { label: 'mounts', color: '#a1887f', dash: '8 3 2 3' },
  uses: { label: 'uses', color: '#90a4ae', dash: '2 3' },
  sources: { label: 'sources from (Flux)', color: '#7e57c2', dash: '4 2' },
  dependsOn: { label: 'depends on (Flux)', color: '#5c6bc0', dash: '1 3' },
};

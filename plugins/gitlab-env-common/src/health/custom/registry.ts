import type { HealthRule } from '../rules';
import { openKruiseRules } from './apps.kruise.io';
import { httpProxyHealth } from './projectcontour.io/HTTPProxy';
import { karmadaBindingHealth } from './work.karmada.io/ResourceBinding';
import { minioTenantHealth } from './minio.min.io/Tenant';
import { subscriptionHealth } from './operators.coreos.com/Subscription';

/**
 * Rules for the operators platform teams run, one kind per file under a
 * folder named after the API group (as Argo CD's resource_customizations),
 * each with its Argo CD cases beside it. Keyed as Argo CD keys them.
 */
export const OPERATOR_RULES: Array<[string, HealthRule]> = [
  ...openKruiseRules,
  ['work.karmada.io/ResourceBinding', karmadaBindingHealth],
  ['work.karmada.io/ClusterResourceBinding', karmadaBindingHealth],
  ['operators.coreos.com/Subscription', subscriptionHealth],
  ['minio.min.io/Tenant', minioTenantHealth],
  ['projectcontour.io/HTTPProxy', httpProxyHealth],
];

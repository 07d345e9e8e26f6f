import { KubeObject } from '../scenario/types';
import { ApiResource } from './resources';

/** Label and field selectors with the syntax and field sets of kube-apiserver. */

export class SelectorError extends Error {}

export type ObjectPredicate = (object: KubeObject) => boolean;

const KEY = String.raw`[A-Za-z0-9][-A-Za-z0-9_./]*`;
const VALUE = String.raw`[-A-Za-z0-9_.]*`;

/** Splits on commas outside parentheses: `a in (x,y),b` -> [`a in (x,y)`, `b`]. */
function splitRequirements(selector: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of selector) {
    if (char === '(') depth++;
    if (char === ')') depth--;
    if (char === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  parts.push(current);
  return parts.map(p => p.trim()).filter(p => p.length > 0);
}

function parseLabelRequirement(
  text: string,
): (labels: Record<string, string>) => boolean {
  let m = text.match(new RegExp(`^(${KEY})\\s+(in|notin)\\s*\\(([^)]*)\\)$`));
  if (m) {
    const [, key, op, list] = m;
    const values = new Set(
      list
        .split(',')
        .map(v => v.trim())
        .filter(Boolean),
    );
    if (values.size === 0) {
      throw new SelectorError(
        `unable to parse requirement: for 'in', 'notin' operators, values set can't be empty`,
      );
    }
    return op === 'in'
      ? l => key in l && values.has(l[key])
      : l => !(key in l) || !values.has(l[key]);
  }
  m = text.match(new RegExp(`^(${KEY})\\s*(==|=|!=)\\s*(${VALUE})$`));
  if (m) {
    const [, key, op, value] = m;
    return op === '!=' ? l => l[key] !== value : l => l[key] === value;
  }
  m = text.match(new RegExp(`^(${KEY})\\s*(>|<)\\s*(-?\\d+)$`));
  if (m) {
    const [, key, op, value] = m;
    return l =>
      key in l &&
      (op === '>'
        ? Number(l[key]) > Number(value)
        : Number(l[key]) < Number(value));
  }
  m = text.match(new RegExp(`^!\\s*(${KEY})$`));
  if (m) {
    return l => !(m![1] in l);
  }
  m = text.match(new RegExp(`^(${KEY})$`));
  if (m) {
    return l => m![1] in l;
  }
  throw new SelectorError(
    `unable to parse requirement: found '${text}', expected: identifier, !, in, notin, =, ==, !=, gt, lt`,
  );
}

/** `app=web,tier!=db,env in (a,b),!legacy`; throws SelectorError like the API server's 400. */
export function parseLabelSelector(
  selector: string | null | undefined,
): ObjectPredicate {
  if (!selector || !selector.trim()) {
    return () => true;
  }
  const requirements = splitRequirements(selector).map(parseLabelRequirement);
  return object => {
    const labels = object.metadata.labels ?? {};
    return requirements.every(r => r(labels));
  };
}

const COMMON_FIELDS = ['metadata.name', 'metadata.namespace'];
const FIELDS_BY_RESOURCE: Record<string, string[]> = {
  '/pods': [
    'spec.nodeName',
    'spec.restartPolicy',
    'spec.schedulerName',
    'spec.serviceAccountName',
    'spec.hostNetwork',
    'status.phase',
    'status.podIP',
    'status.nominatedNodeName',
  ],
  '/events': [
    'involvedObject.kind',
    'involvedObject.namespace',
    'involvedObject.name',
    'involvedObject.uid',
    'involvedObject.apiVersion',
    'involvedObject.resourceVersion',
    'involvedObject.fieldPath',
    'reason',
    'reportingComponent',
    'source',
    'type',
  ],
  '/secrets': ['type'],
  '/namespaces': ['status.phase'],
  '/nodes': ['spec.unschedulable'],
  'batch/jobs': ['status.successful'],
  'apps/replicasets': ['status.replicas'],
};

const ZERO_VALUES: Record<string, string> = {
  'spec.hostNetwork': 'false',
  'spec.unschedulable': 'false',
  'status.successful': '0',
  'status.replicas': '0',
};

function fieldValue(object: KubeObject, field: string): string {
  const path =
    {
      source: 'source.component',
      'status.successful': 'status.succeeded',
    }[field] ?? field;
  let value: any = object;
  for (const part of path.split('.')) {
    value = value?.[part];
  }
  if (value === undefined || value === null) {
    // Absent booleans and counts read as their zero values, like the API server's field sets.
    return ZERO_VALUES[field] ?? '';
  }
  return String(value);
}

/** `metadata.name=x,status.phase!=Running`, restricted to the fields the resource supports. */
export function parseFieldSelector(
  selector: string | null | undefined,
  resource: ApiResource,
): ObjectPredicate {
  if (!selector || !selector.trim()) {
    return () => true;
  }
  const supported = [
    ...COMMON_FIELDS,
    ...(FIELDS_BY_RESOURCE[`${resource.group}/${resource.plural}`] ?? []),
  ];
  const requirements = selector.split(',').map(part => {
    const m = part.trim().match(/^([A-Za-z.]+)\s*(==|=|!=)\s*(.*)$/);
    if (!m) {
      throw new SelectorError(
        `invalid selector: '${selector}'; can't understand '${part}'`,
      );
    }
    const [, field, op, value] = m;
    if (!supported.includes(field)) {
      throw new SelectorError(`field label not supported: ${field}`);
    }
    return (object: KubeObject) =>
      (fieldValue(object, field) === value) === (op !== '!=');
  });
  return object => requirements.every(r => r(object));
}

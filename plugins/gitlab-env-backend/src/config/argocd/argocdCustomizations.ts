import { parse, parseAllDocuments } from 'yaml';

/** One Argo CD health script of argocd-cm, for a group and kind (either may be a glob). */
export interface ArgocdHealthScript {
  /** API group, '' for the core group. */
  group: string;
  kind: string;
  script: string;
  useOpenLibs: boolean;
  /** The key it was read from, for messages. */
  source: string;
}

const HEALTH_PREFIX = 'resource.customizations.health.';
const OPEN_LIBS_PREFIX = 'resource.customizations.useOpenLibs.';
const YAML_KEY = 'resource.customizations';

/**
 * Argo CD's `<group>_<kind>` (or `<kind>` for the core group) as group and
 * kind; undefined for anything else, as Argo CD's convertToOverrideKey.
 */
function splitGroupKind(groupKind: string): [string, string] | undefined {
  const parts = groupKind.split('_');
  if (parts.length === 2 && parts[1]) return [parts[0], parts[1]];
  if (parts.length === 1 && groupKind) return ['', groupKind];
  return undefined;
}

/** Argo CD's `group/Kind` (or `Kind`) key of the YAML form. */
function splitKey(key: string): [string, string] {
  const slash = key.indexOf('/');
  return slash < 0 ? ['', key] : [key.slice(0, slash), key.slice(slash + 1)];
}

const truthy = (value: unknown) =>
  value === true || (typeof value === 'string' && value.trim() === 'true');

/**
 * The health scripts in the data of an argocd-cm ConfigMap, read as Argo CD
 * reads them: the YAML map `resource.customizations` (`group/Kind: {health.lua,
 * health.lua.useOpenLibs}`, wildcard keys allowed), then the keys
 * `resource.customizations.health.<group>_<kind>` and
 * `resource.customizations.useOpenLibs.<group>_<kind>`, which win over the
 * YAML form for the same kind. Other keys are not health and are ignored.
 * Throws one error naming every key it cannot read.
 */
export function readArgocdHealthScripts(
  data: Record<string, unknown>,
  where: string,
): ArgocdHealthScript[] {
  const problems: string[] = [];
  const scripts = new Map<string, ArgocdHealthScript>();
  const keyOf = (group: string, kind: string) =>
    group ? `${group}/${kind}` : kind;

  const yamlForm = data[YAML_KEY];
  if (yamlForm !== undefined) {
    let map: unknown = yamlForm;
    if (typeof yamlForm === 'string') {
      try {
        map = parse(yamlForm);
      } catch (error) {
        problems.push(
          `${where}["${YAML_KEY}"] is not YAML: ${(error as Error).message}`,
        );
        map = undefined;
      }
    }
    if (map !== undefined && map !== null) {
      if (typeof map !== 'object' || Array.isArray(map))
        problems.push(
          `${where}["${YAML_KEY}"] must be a map of group/Kind to customizations`,
        );
      else
        for (const [key, value] of Object.entries(map)) {
          if (typeof value !== 'object' || value === null) continue;
          const lua = (value as Record<string, unknown>)['health.lua'];
          if (lua === undefined || lua === '') continue;
          if (typeof lua !== 'string') {
            problems.push(
              `${where}["${YAML_KEY}"]["${key}"]["health.lua"] must be a Lua script`,
            );
            continue;
          }
          const [group, kind] = splitKey(key);
          scripts.set(keyOf(group, kind), {
            group,
            kind,
            script: lua,
            useOpenLibs: truthy(
              (value as Record<string, unknown>)['health.lua.useOpenLibs'],
            ),
            source: `${where}["${YAML_KEY}"]["${key}"]`,
          });
        }
    }
  }

  for (const [key, value] of Object.entries(data)) {
    if (!key.startsWith(HEALTH_PREFIX)) continue;
    const groupKind = splitGroupKind(key.slice(HEALTH_PREFIX.length));
    if (!groupKind) {
      problems.push(
        `${where}["${key}"]: the key must be ${HEALTH_PREFIX}<group>_<kind> (or <kind> for the core group)`,
      );
      continue;
    }
    if (typeof value !== 'string' || !value.trim()) {
      problems.push(`${where}["${key}"] must be a Lua script`);
      continue;
    }
    const [group, kind] = groupKind;
    scripts.set(keyOf(group, kind), {
      group,
      kind,
      script: value,
      useOpenLibs: false,
      source: `${where}["${key}"]`,
    });
  }
  for (const [key, value] of Object.entries(data)) {
    if (!key.startsWith(OPEN_LIBS_PREFIX)) continue;
    const groupKind = splitGroupKind(key.slice(OPEN_LIBS_PREFIX.length));
    const script = groupKind && scripts.get(keyOf(...groupKind));
    if (script) script.useOpenLibs = truthy(value);
  }
  if (problems.length > 0)
    throw new Error(
      `Invalid Argo CD health customizations:\n- ${problems.join('\n- ')}`,
    );
  return [...scripts.values()];
}

/**
 * The data of the argocd-cm ConfigMap in a manifest file's text (one or
 * more YAML documents, as kept in a GitOps repository).
 */
export function argocdConfigMapData(
  text: string,
  file: string,
): Record<string, unknown> {
  const documents = parseAllDocuments(text).map(doc => {
    if (doc.errors.length > 0)
      throw new Error(`${file} is not YAML: ${doc.errors[0].message}`);
    return doc.toJS() as Record<string, any> | null;
  });
  const configMaps = documents.filter(
    doc => doc?.kind === 'ConfigMap' && typeof doc.data === 'object',
  );
  const configMap =
    configMaps.find(doc => doc?.metadata?.name === 'argocd-cm') ??
    (configMaps.length === 1 ? configMaps[0] : undefined);
  if (!configMap)
    throw new Error(
      `${file} holds no ConfigMap named argocd-cm with data (found ${configMaps.length} ConfigMaps)`,
    );
  return configMap.data ?? {};
}

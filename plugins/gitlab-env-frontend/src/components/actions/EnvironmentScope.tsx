import * as React from 'react';
import { createContext, useContext, useMemo } from 'react';
import { CompoundEntityRef } from '@backstage/catalog-model';

/** The environment the page shows, for the actions and logs of its objects. */
export interface EnvironmentScope {
  entity: CompoundEntityRef;
  environmentSlug: string;
  /** Reads the environment's resources again, after a write changed them. */
  refresh: () => void;
}

const EnvironmentScopeContext = createContext<EnvironmentScope | undefined>(
  undefined,
);

/** Makes the environment known to the drawer, the graph's menu and the dialogs. */
export function EnvironmentScopeProvider({
  entity,
  environmentSlug,
  refresh,
  children,
}: EnvironmentScope & { children: React.ReactNode }) {
  const value = useMemo(
    () => ({ entity, environmentSlug, refresh }),
    [entity, environmentSlug, refresh],
  );
  return (
    <EnvironmentScopeContext.Provider value={value}>
      {children}
    </EnvironmentScopeContext.Provider>
  );
}

/** The environment in view; undefined where the page offers no actions. */
export function useEnvironmentScope(): EnvironmentScope | undefined {
  return useContext(EnvironmentScopeContext);
}

import React from 'react';
import { Progress } from '@backstage/core-components';

/** The entity tab (being built). */
export function EntityGitlabEnvContent() {
  return <Progress />;
}

import * as React from 'react';
import { Content, Header, Page } from '@backstage/core-components';
import Typography from '@mui/material/Typography';

/** Placeholder until the portal-wide overview lands. */
export function GitlabEnvOverviewPage() {
  return (
    <Page themeId="tool">
      <Header
        title="Deployments"
        subtitle="Every GitLab environment in the catalog"
      />
      <Content>
        <Typography variant="body1">
          The health of every GitLab environment of the catalog's components
          will show here. Until then, open a component and choose its
          Environments tab.
        </Typography>
      </Content>
    </Page>
  );
}

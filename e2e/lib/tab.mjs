// Waiting for what the plugin's pages show, shared by the browser tests.

/** The resource graph of an opened environment, once it has a node. */
export async function resourceGraph(page, environment, timeout = 60_000) {
  const graph = page
    .getByRole('region', { name: `Resources of ${environment}` })
    .getByTestId('resource-graph');
  await graph.locator('.react-flow__node').first().waitFor({ timeout });
  return graph;
}

/** Until the overview has listed its rows and read every row's health. */
export async function overviewLoaded(page, timeout = 60_000) {
  await page
    .getByText(/^Showing \d+ of \d+ environments$/)
    .waitFor({ timeout });
  await page
    .getByRole('progressbar', { name: 'Loading environments' })
    .waitFor({ state: 'detached', timeout });
}

/** Until the page's live indicator says Live. */
export async function live(page, timeout = 60_000) {
  await page.waitForFunction(
    () =>
      document
        .querySelector('[data-live-mode]')
        ?.getAttribute('data-live-mode') === 'live',
    null,
    { timeout },
  );
}

/**
 * Whether a console message is the page's own error: React's development
 * warnings are not, nor are the HTTP errors of environments whose panels
 * explain them (Chromium logs every failed response).
 */
export function isAppError(text) {
  if (/Failed to load resource: the server responded/.test(text)) return false;
  return !/Warning:|findDOMNode|defaultProps|React Router Future Flag/.test(
    text,
  );
}

/**
 * Opens, on a page of its own, the access view of a component and the
 * confirmation of a stale namespace's deletion (not confirmed).
 */
export async function namespaceDeleteDialog(
  portal,
  component,
  namespace,
  timeout = 60_000,
) {
  const page = await portal.page();
  await portal.goto(
    page,
    `/catalog/default/component/${component}/gitlab-env?view=access`,
  );
  await page
    .getByRole('button', { name: `Delete namespace ${namespace}` })
    .click({ timeout });
  const dialog = page.getByRole('dialog', {
    name: `Delete namespace ${namespace}?`,
  });
  await dialog.waitFor({ timeout });
  return { page, dialog };
}

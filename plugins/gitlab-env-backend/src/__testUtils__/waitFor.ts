/** Resolves once `condition` holds, checking every 20 ms; throws after `timeoutMs`. */
export async function waitFor(condition: () => boolean, timeoutMs = 5000) {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise(resolve => setTimeout(resolve, 20));
  }
}

/** Resolves once the asynchronous `condition` holds, checking every 50 ms; throws after `timeoutMs`. */
export async function waitForAsync(
  condition: () => Promise<boolean>,
  timeoutMs = 10_000,
) {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise(resolve => setTimeout(resolve, 50));
  }
}

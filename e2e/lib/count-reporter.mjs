// A node:test reporter that writes {passed, failed, skipped} as JSON, so the
// root test script can add the browser tests to its one summary line.
export default async function* countReporter(source) {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for await (const event of source) {
    const leaf = event.data?.details?.type !== 'suite';
    if (event.type === 'test:pass' && leaf) {
      if (event.data.skip || event.data.todo) counts.skipped += 1;
      else counts.passed += 1;
    } else if (event.type === 'test:fail' && leaf) {
      counts.failed += 1;
    }
  }
  yield `${JSON.stringify(counts)}\n`;
}

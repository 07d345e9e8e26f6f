#!/usr/bin/env node
// Copies the tour's pictures, taken by the browser tests
// (e2e/tests/tour.test.mjs into e2e/artifacts/tour/), to docs/images/:
//   node e2e/run.mjs tour && node scripts/docs-images.mjs
// The only screenshots the repository keeps are these.
import { copyFileSync, existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const from = join(root, 'e2e', 'artifacts', 'tour');
const to = join(root, 'docs', 'images');
if (!existsSync(from)) {
  console.error(`No pictures in ${from}: run \`node e2e/run.mjs tour\` first.`);
  process.exit(1);
}
const pictures = readdirSync(from).filter(name => name.endsWith('.png'));
for (const name of pictures) copyFileSync(join(from, name), join(to, name));
console.log(
  `Copied ${pictures.length} pictures to docs/images: ${pictures.join(', ')}`,
);

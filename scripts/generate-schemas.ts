// `npm run schemas`: writes the generated artefacts that are committed — the transform JSON
// Schema (from the registry) and docs/errors.md (from the error catalogue). Tests fail when
// either is stale.

import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine } from '../src/engine/engine.js';
import { renderSchemaFile, renderErrorsDoc } from '../src/schema/artefacts.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outputs: [string, string][] = [
  ['schemas/transform.schema.json', renderSchemaFile(createEngine().transformSchema())],
  ['docs/errors.md', renderErrorsDoc()],
];
for (const [file, text] of outputs) {
  mkdirSync(dirname(join(root, file)), { recursive: true });
  writeFileSync(join(root, file), text);
  process.stdout.write(`wrote ${file}\n`);
}

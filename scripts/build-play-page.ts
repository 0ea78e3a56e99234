// Build the playground's page (src/play/page/) into dist/play/page/: the script and CodeMirror
// bundled by esbuild into one file, the style sheet and the HTML copied. Everything the page
// loads is served by the play command from there: no CDN, nothing fetched at run time.

import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SOURCE = join(ROOT, 'src/play/page');
const OUT = join(ROOT, 'dist/play/page');

mkdirSync(OUT, { recursive: true });
await build({
  entryPoints: [join(SOURCE, 'main.ts')],
  outfile: join(OUT, 'app.js'),
  bundle: true,
  format: 'esm',
  minify: true,
  target: ['chrome110', 'firefox115', 'safari16'],
  legalComments: 'linked',
  logLevel: 'warning',
});
for (const file of ['index.html', 'app.css']) copyFileSync(join(SOURCE, file), join(OUT, file));

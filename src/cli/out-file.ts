// --out checked against what the run reads: a refresh writes its output to a hidden file and
// renames it over --out at the end, so an --out that names one of the fixture files (or the
// profile, or the rules module) would replace that input with NDJSON, silently.

import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { FIXTURE_DOCUMENTS, FIXTURE_RECORDS, SOURCE_SCHEMAS_FILE } from '../providers/fixtures.js';
import { realPathOf } from '../json/paths.js';
import { UsageError } from './io.js';

function sameFile(a: string, b: string): boolean {
  const x = statSync(a, { throwIfNoEntry: false });
  const y = statSync(b, { throwIfNoEntry: false });
  return x !== undefined && y !== undefined && x.isFile() && x.dev === y.dev && x.ino === y.ino;
}

/** CLI_USAGE when `out` is a file the run reads: a record file or a document of `fixtures`, or one of `files`. */
export function refuseOutputOverInput(out: string, fixtures: string | undefined, files: readonly (string | undefined)[]): void {
  const inputs = [...files.filter((f): f is string => f !== undefined)];
  if (fixtures !== undefined) {
    for (const { file } of Object.values(FIXTURE_RECORDS)) inputs.push(join(fixtures, file));
    inputs.push(join(fixtures, SOURCE_SCHEMAS_FILE));
  }
  const input = inputs.find((file) => sameFile(out, file));
  const folder = dirname(out);
  const inDocuments =
    fixtures !== undefined && statSync(out, { throwIfNoEntry: false })?.isFile() === true && realPathOf(folder) !== undefined && Object.values(FIXTURE_DOCUMENTS).some((docs) => realPathOf(join(fixtures, docs)) === realPathOf(folder));
  if (input !== undefined || inDocuments) {
    throw new UsageError(`--out ${out} is ${input !== undefined ? `${input}, an input` : 'a document of the fixtures directory'} of this run: writing it would replace it; name another file`);
  }
}

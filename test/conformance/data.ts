// The conformance vectors kept in test/conformance/data (origins and licences in its SOURCES.md).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Absolute path of a file or folder under test/conformance/data. */
export function conformancePath(...parts: string[]): string {
  return fileURLToPath(new URL(['data', ...parts].join('/'), import.meta.url));
}

/** Parses a JSON vector file under test/conformance/data. */
export function readConformanceJson<T = unknown>(...parts: string[]): T {
  return JSON.parse(readFileSync(conformancePath(...parts), 'utf8')) as T;
}

// The text of the committed generated files, shared by `npm run schemas` and the staleness test.

import { createEngine } from '../engine/engine.js';
import { ERROR_CATALOGUE } from '../errors/index.js';

export function renderSchemaFile(): string {
  return JSON.stringify(createEngine().transformSchema(), null, 2) + '\n';
}

const PHASES: [string, string][] = [
  ['SCHEMA_', 'Schema validation'],
  ['VALIDATE_', 'Validation across nodes and files'],
  ['ENGINE_', 'Engine options'],
  ['COMPILE_', 'Compilation'],
  ['EVAL_', 'Evaluation'],
  ['REGEX_', 'Java regular expressions'],
  ['TEMPLATE_', 'Velocity templates'],
  ['FILTER_', 'Filter languages'],
  ['API_', 'HTTP API'],
  ['CLI_', 'Command line'],
  ['TENANT_', 'Tenant-backed providers'],
  ['SNAPSHOT_', 'Tenant snapshots'],
];

export function renderErrorsDoc(): string {
  let out = '# Error codes\n\n';
  out += 'Generated from `src/errors.ts` by `npm run schemas`; a test keeps the two in step. Every error the\n';
  out += 'library raises is a `TransformsError` with one of these codes, a JSON Pointer `path` where it applies,\n';
  out += 'and the cause chained. Clients branch on the code, never on the message.\n';
  const codes = Object.keys(ERROR_CATALOGUE);
  const used = new Set<string>();
  for (const [prefix, title] of PHASES) {
    const rows = codes.filter((c) => c.startsWith(prefix));
    if (rows.length === 0) continue;
    out += `\n## ${title} (\`${prefix}\`)\n\n| code | HTTP | meaning |\n| --- | --- | --- |\n`;
    for (const code of rows) {
      used.add(code);
      const d = ERROR_CATALOGUE[code]!;
      out += `| \`${code}\` | ${d.status} | ${d.description.replace(/\|/g, '\\|')} |\n`;
    }
  }
  const other = codes.filter((c) => !used.has(c));
  if (other.length > 0) {
    out += '\n## Other\n\n| code | HTTP | meaning |\n| --- | --- | --- |\n';
    for (const code of other) out += `| \`${code}\` | ${ERROR_CATALOGUE[code]!.status} | ${ERROR_CATALOGUE[code]!.description.replace(/\|/g, '\\|')} |\n`;
  }
  return out;
}

// The text of the committed generated files, shared by `npm run schemas` and the staleness test.

import { ERROR_CATALOGUE, type ErrorCode } from '../errors/index.js';

/** schemas/transform.schema.json's text: the schema of the built-in engine (`createEngine().transformSchema()`). */
export function renderSchemaFile(schema: Record<string, unknown>): string {
  return JSON.stringify(schema, null, 2) + '\n';
}

/** The sections of docs/errors.md: a title and the code prefixes (or whole codes) it lists. */
const PHASES: [string, string[]][] = [
  ['Schema validation', ['SCHEMA_']],
  ['Validation across nodes and files', ['VALIDATE_']],
  ['Engine options', ['ENGINE_']],
  ['Compilation', ['COMPILE_']],
  ['Evaluation', ['EVAL_']],
  ['Java regular expressions', ['REGEX_']],
  ['Velocity templates', ['TEMPLATE_']],
  ['Filter languages', ['FILTER_']],
  ['HTTP API', ['API_']],
  ['Collection query parameters', ['PARAM_', 'LIMIT_EXCEEDED', 'UNESCAPED_CHARACTER', 'FILTERS_', 'SORTER_']],
  ['Stored documents', ['JSON_TOO_DEEP', 'DOCUMENT_TOO_LARGE', 'RESOURCE_', 'TRANSFORM_']],
  ['JSON Patch', ['PATCH_']],
  ['Search', ['SEARCH_']],
  ['Command line', ['CLI_']],
  ['Refresh', ['REFRESH_', 'RULES_MODULE_']],
  ['Impact analysis', ['IMPACT_']],
  ['Verifying stored attributes', ['VERIFY_']],
  ['Tenant-backed providers', ['TENANT_']],
  ['Tenant snapshots', ['SNAPSHOT_']],
  ['Editor and assistant servers', ['LSP_', 'MCP_']],
  ['Playground', ['PLAY_']],
];

/** The heading of docs/errors.md that lists `code`, and its anchor as GitHub renders it. */
export function errorsDocSection(code: ErrorCode): { title: string; anchor: string } {
  const found = PHASES.find(([, prefixes]) => inPhase(code, prefixes));
  const heading = found === undefined ? 'Other' : headingOf(found);
  // GitHub's heading ids: lower case, punctuation other than - and _ dropped, spaces to hyphens.
  return { title: heading, anchor: heading.toLowerCase().replace(/[^\p{L}\p{N}_\- ]/gu, '').replace(/ /g, '-') };
}

const inPhase = (code: string, prefixes: string[]) => prefixes.some((p) => code.startsWith(p));
const headingOf = ([title, prefixes]: [string, string[]]) => `${title} (${prefixes.map((p) => `\`${p}\``).join(', ')})`;

const row = (code: ErrorCode) => `| \`${code}\` | ${ERROR_CATALOGUE[code].status} | ${ERROR_CATALOGUE[code].description.replace(/\|/g, '\\|')} |\n`;

export function renderErrorsDoc(): string {
  let out = '# Error codes\n\n';
  out += 'Generated from `src/errors/` by `npm run schemas`; a test keeps the two in step. Every error the\n';
  out += 'library raises is a `TransformsError` with one of these codes, a JSON Pointer `path` where it applies,\n';
  out += 'and the cause chained. Clients branch on the code, never on the message. In TypeScript, `ErrorCode` is\n';
  out += 'the union of these codes.\n\n';
  out += 'Over HTTP, every error body carries the code as its `code` member, beside the platform\'s members\n';
  out += '(`detailCode`, `trackingId`, `messages`, `causes`; see docs/api.md), with the status of the HTTP column.\n';
  const codes = Object.keys(ERROR_CATALOGUE) as ErrorCode[];
  const used = new Set<string>();
  for (const phase of PHASES) {
    const rows = codes.filter((c) => !used.has(c) && inPhase(c, phase[1]));
    if (rows.length === 0) continue;
    out += `\n## ${headingOf(phase)}\n\n| code | HTTP | meaning |\n| --- | --- | --- |\n`;
    for (const code of rows) {
      used.add(code);
      out += row(code);
    }
  }
  const other = codes.filter((c) => !used.has(c));
  if (other.length > 0) {
    out += '\n## Other\n\n| code | HTTP | meaning |\n| --- | --- | --- |\n';
    for (const code of other) out += row(code);
  }
  return out;
}

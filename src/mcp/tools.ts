// The tools and resources of the MCP server, without the protocol: each tool takes its
// arguments (checked here: types, bounds, no unknown key), answers from the language service and
// the engine — validate, evaluate, explain, impact, verify — and returns data, or throws a coded error.
// server.ts wires them to the SDK. An assistant answers "why does this transform give that"
// from a real evaluation.

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createEngine } from '../engine/engine.js';
import { formatExplanation } from '../engine/explain-text.js';
import { MAX_TRANSFORM_BYTES, tooLargeIssue } from '../engine/validate.js';
import { codedError } from '../errors/index.js';
import { isDirectory } from '../json/paths.js';
import { positionOf } from '../json/positions.js';
import { readRegularFile } from '../json/read-file.js';
import { formatImpact, impact } from '../impact/index.js';
import { doValidation, explainRoot, loadIdentityRecords, loadTenantModel, parseDocument, transformRoots, type LanguageDocument, type TenantModel, type Workspace } from '../language/index.js';
import { operationDocumentation } from '../language/operations.js';
import { FIXTURE_DOCUMENTS } from '../providers/fixtures.js';
import { createTenantProviders } from '../providers/tenant/index.js';
import { formatVerify, MAX_PREVIEW_IDENTITIES, verifyReport, type VerifyOptions } from '../verify/index.js';

/** A tool's description for the client: its name, what it does, and its arguments' JSON Schema. */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, Record<string, unknown>>; required: string[]; additionalProperties: false };
}

const MAX_NAME = 1000;
const MAX_PATH = 4096;

const document = { type: 'string', maxLength: MAX_TRANSFORM_BYTES, description: 'The JSON text of a transform, an identity profile or a create profile (at most 400 KB, the platform\'s limit)' };
const fixtures = { type: 'string', maxLength: MAX_PATH, description: 'A fixture or snapshot directory (sources.json, identities.json, accounts.json, transforms/)' };
const identity = { type: 'string', maxLength: MAX_NAME, description: 'The identity to evaluate for: its id or name' };
const pointer = { type: 'string', maxLength: MAX_NAME, description: 'For a profile: the JSON Pointer of the mapping\'s transform (default: the first)' };

export const TOOLS: readonly ToolDefinition[] = [
  {
    name: 'validate',
    description: 'Validate a transform or profile as `identity-transforms validate` does (schema, compile, references), and with a fixtures directory the source and attribute names: each finding with its code, line, column, JSON Pointer and suggested name.',
    inputSchema: { type: 'object', properties: { document, fixtures }, required: ['document'], additionalProperties: false },
  },
  {
    name: 'evaluate',
    description: 'Evaluate a transform (or a profile mapping) for one identity of a fixtures directory, as the platform would: the value, or the coded error.',
    inputSchema: { type: 'object', properties: { document, fixtures, identity, pointer }, required: ['document', 'fixtures', 'identity'], additionalProperties: false },
  },
  {
    name: 'explain',
    description: 'Evaluate and explain: every node the evaluation ran with its input and value or error, and its decisions (the accounts accountAttribute considered and which won, the lookup key…).',
    inputSchema: { type: 'object', properties: { document, fixtures, identity, pointer }, required: ['document', 'fixtures', 'identity'], additionalProperties: false },
  },
  {
    name: 'verify',
    description:
      'Does this engine agree with the tenant? Recompute the identity profile of every identity of a snapshot (fixtures) or of a tenant over its API (tenant: its URL; the credentials come from the server\'s environment, IDT_CLIENT_ID and IDT_CLIENT_SECRET) and compare with the attribute values the platform stored: per attribute how many agree, differ or are not comparable and why (time, random, unique, rule, stale, missing), the differences grouped with example identities and, with fixtures, how this engine computed one of each group. With preview (a tenant), the platform computes n identities afresh and those values are compared. Nothing is written to the tenant.',
    inputSchema: {
      type: 'object',
      properties: {
        fixtures: { ...fixtures, description: 'The tenant as a snapshot directory (with stored attributes)' },
        tenant: { type: 'string', maxLength: MAX_PATH, description: 'Or the tenant\'s API base URL, e.g. https://acme.api.identitynow.com' },
        profile: { type: 'string', maxLength: MAX_NAME, description: 'The identity profile: a tenant profile\'s name or id (default: the first)' },
        identity: { ...identity, description: 'Only this identity: its id or name' },
        attributes: { type: 'string', maxLength: MAX_PATH, description: 'Only these attributes, comma-separated' },
        now: { type: 'string', maxLength: 64, description: 'Fix the clock (ISO 8601)' },
        preview: { type: 'integer', minimum: 1, maximum: MAX_PREVIEW_IDENTITIES, description: 'With tenant: ask the tenant\'s identity preview for this many identities\' fresh values' },
      },
      required: [],
      additionalProperties: false,
    },
  },
  {
    name: 'impact',
    description: 'What a change to transforms or identity profiles would do to every identity of a fixtures directory: base and head are directories or git:<ref>[:<path>]; the report in markdown and as data.',
    inputSchema: {
      type: 'object',
      properties: {
        base: { type: 'string', maxLength: MAX_PATH, description: 'The version before the change: a directory or git:<ref>[:<path>]' },
        head: { type: 'string', maxLength: MAX_PATH, description: 'The version after the change (default: the working directory)' },
        fixtures,
      },
      required: ['base', 'fixtures'],
      additionalProperties: false,
    },
  },
];

type Args = Record<string, unknown>;

/** The arguments checked against the tool's schema: unknown keys, missing ones, types, lengths and bounds. */
function checked(tool: ToolDefinition, args: unknown): { text: Record<string, string | undefined>; numbers: Record<string, number | undefined> } {
  if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args))) throw codedError('MCP_INPUT_INVALID', `${tool.name}: the arguments must be an object`);
  const given = (args ?? {}) as Args;
  const out: Record<string, string | undefined> = {};
  const numbers: Record<string, number | undefined> = {};
  for (const key of Object.keys(given)) {
    if (!Object.hasOwn(tool.inputSchema.properties, key)) throw codedError('MCP_INPUT_INVALID', `${tool.name}: unknown argument "${key}" (it takes ${Object.keys(tool.inputSchema.properties).join(', ')})`);
  }
  for (const [key, schema] of Object.entries(tool.inputSchema.properties)) {
    const value = given[key];
    if (value === undefined) {
      if (tool.inputSchema.required.includes(key)) throw codedError('MCP_INPUT_INVALID', `${tool.name}: the argument "${key}" is required`);
      continue;
    }
    if (schema.type === 'integer') {
      const [min, max] = [schema.minimum as number, schema.maximum as number];
      if (!Number.isSafeInteger(value) || (value as number) < min || (value as number) > max) throw codedError('MCP_INPUT_INVALID', `${tool.name}: the argument "${key}" must be an integer from ${min} to ${max}`);
      numbers[key] = value as number;
      continue;
    }
    if (typeof value !== 'string') throw codedError('MCP_INPUT_INVALID', `${tool.name}: the argument "${key}" must be a string`);
    const max = schema.maxLength as number;
    if (value.length > max) throw codedError('MCP_INPUT_INVALID', `${tool.name}: the argument "${key}" is ${value.length} characters; the limit is ${max}`);
    out[key] = value;
  }
  return { text: out, numbers };
}

function fixtureDir(dir: string): string {
  if (!isDirectory(dir)) throw codedError('MCP_INPUT_INVALID', `fixtures: no such directory: ${dir}`);
  return dir;
}

/** Tenant models by directory, read once per server (a snapshot of 100,000 identities takes seconds). */
export class ToolHost {
  private readonly models = new Map<string, Promise<TenantModel>>();
  private readonly engine = createEngine();

  private model(dir: string): Promise<TenantModel> {
    let model = this.models.get(dir);
    if (!model) {
      model = loadTenantModel(dir);
      model.catch(() => this.models.delete(dir));
      this.models.set(dir, model);
    }
    return model;
  }

  /** The workspace of a call: the document, the fixtures' transforms (for references), the model and identity. */
  private async workspace(doc: LanguageDocument, dir: string | undefined, who: string | undefined): Promise<Workspace> {
    const documents = new Map<string, LanguageDocument>();
    if (dir !== undefined) {
      // The names references may find, as the editor's workspace reads them: what cannot be read
      // as a transform (a dangling link, a directory, a file above 400 KB, a transforms/ that is
      // a file) is left out, never the call's failure.
      const transforms = join(dir, FIXTURE_DOCUMENTS.transforms);
      for (const file of isDirectory(transforms) ? readdirSync(transforms).filter((f) => f.endsWith('.json')) : []) {
        const path = join(transforms, file);
        const read = readRegularFile(path, MAX_TRANSFORM_BYTES);
        if (read.ok) documents.set(path, parseDocument(path, read.text));
      }
    }
    documents.set(doc.uri, doc);
    const tenant = dir === undefined ? undefined : await this.model(dir);
    let records;
    if (dir !== undefined && who !== undefined) {
      records = await loadIdentityRecords(dir, who);
      if (!records) throw codedError('MCP_INPUT_INVALID', `identity: no identity with id or name "${who}" in ${dir}`);
    }
    return { engine: this.engine, documents, tenant, identity: records ?? undefined };
  }

  async call(name: string, args: unknown): Promise<{ text: string; data: Record<string, unknown> }> {
    const tool = TOOLS.find((t) => t.name === name);
    if (!tool) throw codedError('MCP_UNKNOWN_TOOL', `no tool "${name}" (the tools are ${TOOLS.map((t) => t.name).join(', ')})`);
    const { text: a, numbers } = checked(tool, args);
    if (name === 'impact') {
      const report = await impact({ base: a.base!, ...(a.head !== undefined ? { head: a.head } : {}), fixtures: fixtureDir(a.fixtures!), workers: 0 });
      return { text: formatImpact(report, 'markdown'), data: report as unknown as Record<string, unknown> };
    }
    if (name === 'verify') {
      const report = await verifyReport(this.verifyOptions(a, numbers));
      return { text: formatVerify(report, 'markdown'), data: report as unknown as Record<string, unknown> };
    }
    const doc = parseDocument('document.json', a.document!);
    // Within 400 KB of characters, a document may still be above 400 KB of UTF-8: validate says so as a finding, the others cannot run it.
    if (doc.tooLarge !== undefined && name !== 'validate') throw codedError('MCP_INPUT_INVALID', `document: ${tooLargeIssue(doc.tooLarge).message}`);
    const dir = a.fixtures === undefined ? undefined : fixtureDir(a.fixtures);
    const ws = await this.workspace(doc, dir, a.identity);
    if (name === 'validate') {
      const findings = doValidation(doc, ws).map((d) => ({ ...positionOf(doc.text, d.offset), severity: d.severity, code: d.code, message: d.message, pointer: d.pointer, ...(d.suggestion !== undefined ? { suggestion: d.suggestion } : {}) }));
      const text = findings.length === 0 ? 'valid: no findings' : findings.map((f) => `${f.line}:${f.column} ${f.severity} ${f.code} ${f.message}${f.pointer ? ` (${f.pointer})` : ''}`).join('\n');
      return { text, data: { valid: !findings.some((f) => f.severity === 'error'), findings } };
    }
    const roots = transformRoots(doc);
    const root = a.pointer === undefined ? roots[0] : roots.find((r) => r.pointer === a.pointer);
    if (!root) throw codedError('MCP_INPUT_INVALID', a.pointer === undefined ? 'document: no transform in the document (is it valid JSON with a "type"?)' : `pointer: no transform at ${a.pointer} (the document has ${roots.map((r) => r.pointer || '/').join(', ')})`);
    const outcome = explainRoot(root, ws)!;
    const result = outcome.error ? { error: outcome.error } : { value: outcome.value ?? null };
    if (name === 'evaluate') {
      return { text: outcome.error ? `${outcome.error.code} ${outcome.error.message}` : JSON.stringify(outcome.value ?? null), data: { identity: outcome.identity.name, ...result } };
    }
    return { text: formatExplanation(outcome), data: { identity: outcome.identity.name, ...result, trace: outcome.trace } };
  }

  /** verify's options from the tool's arguments: the tenant (a snapshot, or the API with the server's credentials) and the selection. */
  private verifyOptions(a: Record<string, string | undefined>, numbers: Record<string, number | undefined>): VerifyOptions {
    if ((a.fixtures === undefined) === (a.tenant === undefined)) throw codedError('MCP_INPUT_INVALID', 'verify: give the tenant as fixtures (a snapshot directory) or tenant (its API URL), one of them');
    let options: VerifyOptions;
    if (a.fixtures !== undefined) options = { fixtures: fixtureDir(a.fixtures), explain: true };
    else {
      const { IDT_CLIENT_ID: clientId, IDT_CLIENT_SECRET: clientSecret, IDT_TOKEN_URL: tokenUrl } = process.env;
      if (!clientId || !clientSecret) throw codedError('MCP_INPUT_INVALID', 'verify: tenant needs the client credentials in the server\'s environment (IDT_CLIENT_ID and IDT_CLIENT_SECRET)');
      options = { tenant: createTenantProviders({ baseUrl: a.tenant!, clientId, clientSecret, ...(tokenUrl ? { tokenUrl } : {}) }) };
    }
    if (a.profile !== undefined) options.profile = a.profile;
    if (a.identity !== undefined) options.identity = a.identity;
    if (a.attributes !== undefined) options.attributes = a.attributes.split(',').map((s) => s.trim()).filter((s) => s !== '');
    if (a.now !== undefined) options.now = a.now;
    if (numbers.preview !== undefined) options.preview = numbers.preview;
    return options;
  }

  /** The resources: each operation's documentation, and the JSON Schema of transforms. */
  resources(): { uri: string; name: string; mimeType: string; description: string }[] {
    return [
      { uri: SCHEMA_URI, name: 'transform.schema.json', mimeType: 'application/schema+json', description: 'The JSON Schema of transforms, built from the operation registry' },
      ...[...this.engine.registry.values()].map((spec) => ({ uri: `${OPERATION_URI}${spec.type}`, name: spec.type, mimeType: 'text/markdown', description: spec.doc })),
    ];
  }

  read(uri: string): { uri: string; mimeType: string; text: string } {
    if (uri === SCHEMA_URI) return { uri, mimeType: 'application/schema+json', text: JSON.stringify(this.engine.transformSchema(), null, 2) };
    const spec = uri.startsWith(OPERATION_URI) ? this.engine.registry.get(uri.slice(OPERATION_URI.length)) : undefined;
    if (!spec) throw codedError('MCP_UNKNOWN_TOOL', `no resource ${uri.slice(0, 200)}`);
    return { uri, mimeType: 'text/markdown', text: operationDocumentation(spec) };
  }
}

export const SCHEMA_URI = 'identity-transforms://schema/transform.schema.json';
export const OPERATION_URI = 'identity-transforms://operations/';

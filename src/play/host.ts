// What the playground knows and does, without HTTP: the fixture or snapshot directory it was
// started on (its tenant model, its transforms and profiles as the examples), one engine with
// the server's evaluation limits, and the answers of the API — each from the language service
// (diagnostics, completion, hover, explain) or the library (evaluateProfile, impact). The page is
// an adapter over these answers; nothing here decides what a transform means.

import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { SERVER_EVALUATION_LIMITS } from '../api/evaluation-limits.js';
import { createEngine, type Engine } from '../engine/engine.js';
import { MAX_TRANSFORM_BYTES } from '../engine/validate.js';
import { codedError, isTransformsError } from '../errors/index.js';
import { MAX_JSON_DEPTH, checkJsonDepth } from '../json/depth.js';
import { readVersion, type ImpactReport, type TransformVersion } from '../impact/index.js';
import { readRegularFile } from '../json/read-file.js';
import { positionOf, type Position } from '../json/positions.js';
import { doComplete, doHover, doValidation, explainRoot, loadIdentityRecords, loadTenantModel, parseDocument, transformRoots, type Diagnostic, type IdentityName, type IdentityRecords, type LanguageDocument, type Span, type TenantModel, type Workspace } from '../language/index.js';
import { nodeAtOffset, pointerOf, spanOfPointer } from '../language/document.js';
import { rootOf } from '../language/evaluation.js';
import { createMemoryProviders } from '../providers/memory.js';
import type { IdentityProfile, TransformDocument } from '../providers/types.js';
import { escapePointerToken } from '../errors/index.js';
import { locateTrace, type LocatedNode } from './trace-spans.js';
import { DEFAULT_IMPACT_BUDGET, impactInProcess, type ImpactBudget } from './impact-process.js';
import type { AnalyzeRequest, CompleteRequest, ImpactRequest, ProfileRequest } from './requests.js';

/** An example of the fixtures: a transform or identity profile file the page can open. */
export interface Example {
  /** Its path in the fixtures directory (transforms/x.json, identity-profiles/y.json): its id. */
  file: string;
  kind: 'transform' | 'identity-profile';
  /** The transform's name, or the profile's. */
  name: string;
}

/** What the page shows for a text (the analyze call). */
export interface Analysis {
  /** The language service's findings, with their line and column. */
  diagnostics: (Diagnostic & Position)[];
  /** The transforms of the document: itself, or each mapping of a profile. */
  roots: (Span & { pointer: string; label: string })[];
  /** The transform evaluated (the one at the caret, else the first) and for whom; absent without an identity or with a syntax error. */
  evaluated?: { pointer: string; label: string; identity: IdentityName };
  value?: unknown;
  /** The evaluation's coded error, at the span of its pointer when it has one. */
  error?: { code: string; message: string; path?: string } & Partial<Span>;
  trace?: LocatedNode;
}

/** Every attribute of an identity profile for an identity (the profile call). */
export interface ProfileAnswer {
  profile: string | null;
  identity?: IdentityName;
  attributes: { name: string; value?: unknown; error?: { code: string; message: string; path: string }; stored: unknown }[];
}

/** Identities a search answers at most. */
export const MAX_IDENTITY_MATCHES = 50;
/**
 * Identities up to which impact runs on its process's own thread; above, on a refresh thread
 * per core. Never on the server's thread (impact-process.ts): a pasted profile that spends its
 * evaluation budget on every identity would hold the event loop for identities x budget, and
 * the API must keep answering meanwhile.
 */
const IMPACT_ONE_WORKER = 5000;
/** Identity records kept in memory (each read streams the tenant's files once). */
const IDENTITY_CACHE = 20;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export class PlayHost {
  readonly engine: Engine = createEngine({ limits: SERVER_EVALUATION_LIMITS });
  private readonly records = new Map<string, IdentityRecords>();
  /** The impact run under way: a new one cancels it. */
  private impactRun: AbortController | undefined;

  private constructor(
    readonly dir: string,
    readonly tenant: TenantModel,
    /** The fixtures' own transforms and profiles, as impact reads a version. */
    readonly version: TransformVersion,
    /** The fixtures' transforms as documents of the workspace (a reference finds them). */
    private readonly documents: ReadonlyMap<string, LanguageDocument>,
    /** What one impact run may take (decision G10). */
    readonly impactBudget: Readonly<ImpactBudget>,
  ) {}

  /** Read a fixture or snapshot directory: its tenant model and its transforms and profiles. */
  static async open(dir: string, options: { impactBudget?: ImpactBudget } = {}): Promise<PlayHost> {
    const tenant = await loadTenantModel(dir);
    // Files named relative to the directory (transforms/x.json): the examples' ids.
    const version = readVersion(resolve(dir), { cwd: resolve(dir) });
    const documents = new Map<string, LanguageDocument>();
    for (const { file, doc } of version.transforms.values()) documents.set(file, parseDocument(file, JSON.stringify(doc)));
    return new PlayHost(dir, tenant, version, documents, Object.freeze({ ...DEFAULT_IMPACT_BUDGET, ...options.impactBudget }));
  }

  examples(): Example[] {
    const transforms = [...this.version.transforms.values()].map((t): Example => ({ file: t.file, kind: 'transform', name: t.doc.name }));
    const profiles = this.version.profiles.map((p): Example => ({ file: p.file, kind: 'identity-profile', name: p.doc.name }));
    return [...profiles, ...transforms.sort((a, b) => a.name.localeCompare(b.name))];
  }

  /** The text of an example file, as it is on disk. */
  exampleText(file: string): string {
    if (!this.examples().some((e) => e.file === file)) throw codedError('PLAY_NOT_FOUND', `no example ${file.slice(0, 200)} in ${this.dir}`);
    const read = readRegularFile(join(this.dir, file), MAX_TRANSFORM_BYTES);
    if (!read.ok) throw codedError('PLAY_NOT_FOUND', `${file}: ${read.message}`);
    return read.text;
  }

  /** Identities whose name (or id) contains the query, case-insensitively, in the tenant's order. */
  identities(query: string, limit = MAX_IDENTITY_MATCHES): { total: number; matches: IdentityName[] } {
    const q = query.toLowerCase();
    const matches: IdentityName[] = [];
    let total = 0;
    for (const i of this.tenant.identities) {
      if (q !== '' && !i.name.toLowerCase().includes(q) && !i.id.toLowerCase().includes(q)) continue;
      total++;
      if (matches.length < limit) matches.push(i);
    }
    return { total, matches };
  }

  private async identity(idOrName: string): Promise<IdentityRecords> {
    const cached = this.records.get(idOrName);
    if (cached) return cached;
    const found = await loadIdentityRecords(this.dir, idOrName);
    if (!found) throw codedError('PLAY_NOT_FOUND', `no identity with id or name "${idOrName.slice(0, 200)}" in the fixtures`, { path: '/identity' });
    if (this.records.size >= IDENTITY_CACHE) this.records.delete(this.records.keys().next().value!);
    this.records.set(idOrName, found);
    return found;
  }

  /** The workspace of a request: the fixtures' transforms with the edited document in place of the file it was opened from. */
  private workspace(doc: LanguageDocument, records?: IdentityRecords): Workspace {
    const documents = new Map(this.documents);
    documents.set(doc.uri, doc);
    return { engine: this.engine, documents, tenant: this.tenant, identity: records };
  }

  private document(text: string, file: string | undefined): LanguageDocument {
    return parseDocument(file ?? 'untitled.json', text);
  }

  /**
   * Everything the page shows for a text: the findings of the language service, and, with an
   * identity, the value (or coded error) of the transform at the caret and its explanation, each
   * node located in the text.
   */
  async analyze(request: AnalyzeRequest): Promise<Analysis> {
    const doc = this.document(request.document, request.file);
    const records = request.identity === undefined ? undefined : await this.identity(request.identity);
    const ws = this.workspace(doc, records);
    const diagnostics = doValidation(doc, ws).map((d) => ({ ...d, ...positionOf(doc.text, d.offset) }));
    const roots = transformRoots(doc);
    const at = request.offset === undefined ? undefined : nodeAtOffset(doc, request.offset);
    const root = (at ? rootOf(doc, '/' + pointerOf(at).map(escapePointerToken).join('/')) : undefined) ?? roots[0];
    const base: Analysis = { diagnostics, roots: roots.map((r) => ({ pointer: r.pointer, label: r.label, ...spanOfPointer(doc, r.pointer) })) };
    // Half-typed JSON is checked but not evaluated: a value of the recovered tree would be one of a text nobody wrote.
    if (!root || !records || doc.syntaxErrors.length > 0) return base;
    const outcome = explainRoot(root, ws)!;
    const trace: LocatedNode = locateTrace(doc, root.pointer, outcome.trace);
    return {
      ...base,
      evaluated: { pointer: root.pointer, label: root.label, identity: { id: records.identity.id, name: records.identity.name } },
      ...(outcome.error ? { error: { ...outcome.error, ...(outcome.error.path !== undefined ? spanOfPointer(doc, root.pointer + outcome.error.path) : {}) } } : { value: outcome.value ?? null }),
      trace,
    };
  }

  complete(request: CompleteRequest) {
    const doc = this.document(request.document, request.file);
    return { items: doComplete(doc, request.offset, this.workspace(doc)) };
  }

  hover(request: CompleteRequest) {
    const doc = this.document(request.document, request.file);
    return { hover: doHover(doc, request.offset, this.workspace(doc)) ?? null };
  }

  /**
   * The profile to show: the document when it is an identity profile, else the fixtures' first;
   * none for a document the language service left unread (too large or nested too deep, which the
   * analysis reports), whose kind is unknown — the fixtures' profile would pass for the edited one.
   */
  private profileFor(doc: LanguageDocument): IdentityProfile | undefined {
    if (doc.tooLarge !== undefined || doc.tooDeep !== undefined) return undefined;
    const value = doc.value;
    if (isObject(value) && isObject(value.identityAttributeConfig)) return value as unknown as IdentityProfile;
    return this.version.profiles[0]?.doc;
  }

  /** Every attribute of the identity profile for an identity, the edited transform in place of its file. */
  async profile(request: ProfileRequest): Promise<ProfileAnswer> {
    const doc = this.document(request.document, request.file);
    const records = await this.identity(request.identity);
    const profile = this.profileFor(doc);
    if (!profile) return { profile: null, attributes: [] };
    const transforms = [...this.workspace(doc, records).documents.values()].map((d) => d.value).filter((v): v is TransformDocument => isObject(v) && typeof v.name === 'string' && typeof v.type === 'string');
    const identities = records.manager ? [records.identity, records.manager] : [records.identity];
    const providers = createMemoryProviders({ sources: [...this.tenant.sources], identities, accounts: records.accounts, transforms });
    const engine = createEngine({ providers, limits: SERVER_EVALUATION_LIMITS });
    const result = await engine.evaluateProfile(profile, records.identity);
    const stored = records.identity.attributes ?? {};
    const attributes = profile.identityAttributeConfig.attributeTransforms.map((m) => {
      const error = result.errors.find((e) => e.attribute === m.identityAttributeName);
      const name = m.identityAttributeName;
      const value = Object.prototype.hasOwnProperty.call(result.attributes, name) ? result.attributes[name] : null;
      return { name, ...(error ? { error: { code: error.code, message: error.message, path: error.path } } : { value }), stored: Object.prototype.hasOwnProperty.call(stored, name) ? stored[name] : null };
    });
    return { profile: profile.name, identity: { id: records.identity.id, name: records.identity.name }, attributes };
  }

  /**
   * impact's own report of the edited document against the example file it was opened from, over
   * every identity of the fixtures, within the impact budget. One run at a time: a new one cancels
   * the run under way (PLAY_IMPACT_CANCELLED), as does `signal` (the request's client went away).
   */
  async impact(request: ImpactRequest, signal?: AbortSignal): Promise<ImpactReport> {
    const head = this.headVersion(request);
    this.impactRun?.abort(codedError('PLAY_IMPACT_CANCELLED', 'the impact run was cancelled: another one was started'));
    const run = new AbortController();
    this.impactRun = run;
    const onAbort = () => run.abort(codedError('PLAY_IMPACT_CANCELLED', 'the impact run was cancelled: its request was'));
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) onAbort();
    try {
      const workers = this.tenant.identities.length > IMPACT_ONE_WORKER ? availableParallelism() : 0;
      return await impactInProcess({ base: this.version, head, fixtures: this.dir, workers, workerHeapMb: this.impactBudget.maxHeapMb, limits: SERVER_EVALUATION_LIMITS, examples: request.examples ?? 5 }, this.impactBudget, run.signal);
    } finally {
      signal?.removeEventListener('abort', onAbort);
      if (this.impactRun === run) this.impactRun = undefined;
    }
  }

  /** The fixtures' version with the edited document in place of its file. */
  private headVersion(request: ImpactRequest): TransformVersion {
    const example = this.examples().find((e) => e.file === request.file);
    if (!example) throw codedError('PLAY_NOT_FOUND', `no example ${request.file.slice(0, 200)} in the fixtures: impact compares an edited example with its file`, { path: '/file' });
    let value: unknown;
    try {
      value = JSON.parse(request.document);
    } catch {
      throw codedError('PLAY_REQUEST_INVALID', 'the document is not valid JSON: fix it to see its impact', { path: '/document' });
    }
    if (!isObject(value)) throw codedError('PLAY_REQUEST_INVALID', 'the document is not a JSON object', { path: '/document' });
    // impact compares canonical forms, recursively: a document nested past JSON's bound would overflow the stack.
    try {
      checkJsonDepth(value, MAX_JSON_DEPTH, 'the document');
    } catch (error) {
      if (!isTransformsError(error)) throw error;
      throw codedError('JSON_TOO_DEEP', error.message, { path: `/document${error.path ?? ''}`, details: error.details });
    }
    const transforms = new Map(this.version.transforms);
    let profiles = this.version.profiles;
    if (example.kind === 'transform') {
      if (typeof value.name !== 'string' || typeof value.type !== 'string') throw codedError('PLAY_REQUEST_INVALID', 'the transform needs a "name" and a "type" to be compared with its file', { path: '/document' });
      transforms.delete(example.name);
      transforms.set(value.name, { doc: value as TransformDocument & { name: string }, file: example.file });
    } else {
      if (!isObject(value.identityAttributeConfig)) throw codedError('PLAY_REQUEST_INVALID', 'the identity profile needs an "identityAttributeConfig"', { path: '/document' });
      profiles = profiles.map((p) => (p.file === example.file ? { doc: { ...(value as IdentityProfile), name: typeof value.name === 'string' ? value.name : p.doc.name }, file: p.file } : p));
    }
    return { label: 'the edited document', transforms, profiles };
  }
}

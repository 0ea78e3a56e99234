// The workspace an adapter keeps for the language service: the documents (open in the editor,
// and the .json files of the workspace's folders, so that a reference finds a transform in a
// file that is not open), the settings, and the tenant model and identity, loaded in the
// background: a request never waits for them — it is answered with what has loaded, and
// `onChange` tells the adapter to answer again (republish diagnostics) once more is known.

import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createEngine, type Engine } from '../engine/engine.js';
import { MAX_TRANSFORM_BYTES } from '../engine/validate.js';
import { parseDocument, type LanguageDocument } from './document.js';
import { findFixturesDir, loadIdentityRecords, loadTenantModel, type IdentityRecords, type TenantModel } from './tenant-model.js';
import type { Workspace } from './types.js';

export interface Settings {
  /** A fixture or snapshot directory (default: found by walking up from the documents). */
  fixtures?: string | undefined;
  /** The identity (id or name) whose values hover and lenses show. */
  identity?: string | undefined;
}

/** Files of a folder read for the workspace's names, at most (a repository of transforms has hundreds). */
const MAX_FOLDER_FILES = 5000;

const fileOf = (uri: string): string | undefined => {
  try {
    return uri.startsWith('file:') ? fileURLToPath(uri) : undefined;
  } catch {
    return undefined;
  }
};

export class WorkspaceHost {
  readonly engine: Engine = createEngine();
  /** Documents open in the editor, by URI: their text wins over the file's. */
  private readonly open = new Map<string, LanguageDocument>();
  /** Documents read from the workspace's folders. */
  private readonly disk = new Map<string, LanguageDocument>();
  private settings: Settings = {};
  private tenant: TenantModel | undefined;
  private identity: IdentityRecords | undefined;
  private tenantDir: string | undefined;
  /** Problems met loading the model or the identity, for the adapter to show once. */
  readonly problems: string[] = [];
  private generation = 0;
  /** Loads under way. */
  private readonly loading = new Set<Promise<void>>();

  constructor(private readonly onChange: () => void = () => {}) {}

  /** The workspace the service reads, as it is now. */
  workspace(): Workspace {
    const documents = new Map(this.disk);
    for (const [uri, doc] of this.open) documents.set(uri, doc);
    return { engine: this.engine, documents, tenant: this.tenant, identity: this.identity };
  }

  document(uri: string): LanguageDocument | undefined {
    return this.open.get(uri) ?? this.disk.get(uri);
  }

  /** A document opened or changed in the editor; the first one may reveal the fixtures directory. */
  setText(uri: string, text: string): LanguageDocument {
    const doc = parseDocument(uri, text);
    this.open.set(uri, doc);
    if (this.settings.fixtures === undefined && this.tenantDir === undefined) {
      const file = fileOf(uri);
      const found = file === undefined ? undefined : findFixturesDir(file);
      if (found !== undefined) this.useTenant(found);
    }
    return doc;
  }

  close(uri: string): void {
    this.open.delete(uri);
  }

  /** New settings: the model and identity are read again (in the background) when they changed. */
  configure(settings: Settings): void {
    const before = this.settings;
    this.settings = { ...settings };
    if (settings.fixtures !== undefined && settings.fixtures !== before.fixtures) this.useTenant(settings.fixtures);
    else if (settings.identity !== before.identity && this.tenantDir !== undefined) this.loadIdentity(this.tenantDir);
  }

  /** Read the .json files of a folder (recursively, dot folders and node_modules left out) in the background. */
  addFolder(uriOrPath: string): Promise<void> {
    const root = fileOf(uriOrPath) ?? uriOrPath;
    const task = this.readFolder(root).then(
      () => this.onChange(),
      (error: unknown) => void this.problems.push(`cannot read the folder ${root}: ${(error as Error).message}`),
    );
    if (this.settings.fixtures === undefined && this.tenantDir === undefined) {
      const found = findFixturesDir(root);
      if (found !== undefined) this.useTenant(found);
    }
    return task;
  }

  private async readFolder(root: string): Promise<void> {
    const pending = [root];
    let count = 0;
    while (pending.length > 0 && count < MAX_FOLDER_FILES) {
      const dir = pending.pop()!;
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
        const path = join(dir, entry.name);
        if (entry.isDirectory()) pending.push(path);
        else if (entry.isFile() && entry.name.endsWith('.json') && count++ < MAX_FOLDER_FILES) {
          if ((await stat(path)).size > MAX_TRANSFORM_BYTES) continue;
          const uri = pathToFileURL(path).href;
          if (!this.open.has(uri)) this.disk.set(uri, parseDocument(uri, await readFile(path, 'utf8')));
        }
      }
    }
  }

  private useTenant(dir: string): void {
    this.tenantDir = dir;
    const generation = ++this.generation;
    this.track(loadTenantModel(dir).then(
      (model) => {
        if (generation !== this.generation) return;
        this.tenant = model;
        this.loadIdentity(dir);
        this.onChange();
      },
      (error: unknown) => void this.problems.push(`cannot read the fixtures ${dir}: ${(error as Error).message}`),
    ));
  }

  private track(load: Promise<void>): void {
    this.loading.add(load);
    void load.finally(() => this.loading.delete(load));
  }

  private loadIdentity(dir: string): void {
    const wanted = this.settings.identity;
    this.identity = undefined;
    if (wanted === undefined || wanted === '') return;
    const generation = this.generation;
    this.track(loadIdentityRecords(dir, wanted).then(
      (records) => {
        if (generation !== this.generation || wanted !== this.settings.identity) return;
        if (records === null) this.problems.push(`no identity with id or name "${wanted}" in ${dir}`);
        this.identity = records ?? undefined;
        this.onChange();
      },
      (error: unknown) => void this.problems.push(`cannot read the identity ${wanted} in ${dir}: ${(error as Error).message}`),
    ));
  }

  /** Resolves once the loads started so far (the model, the identity) are done (tests and benchmarks wait on it). */
  async settled(): Promise<void> {
    while (this.loading.size > 0) await Promise.allSettled([...this.loading]);
  }
}

// What the language service answers, in its own terms: offsets and spans into a document's text,
// codes and pointers. No protocol's types: the LSP server, the MCP server and a browser page
// translate these into theirs.

import type { Engine } from '../engine/engine.js';
import type { LanguageDocument, Span } from './document.js';
import type { IdentityRecords, TenantModel } from './tenant-model.js';

export type { LanguageDocument, Span } from './document.js';

export interface Diagnostic extends Span {
  severity: 'error' | 'warning';
  /** The error code of the catalogue (docs/errors.md). */
  code: string;
  message: string;
  /** JSON Pointer of what is wrong. */
  pointer: string;
  /** The name the finding suggests instead of the one written (did you mean…?). */
  suggestion?: string;
}

export type CompletionKind = 'operation' | 'attribute' | 'value' | 'source' | 'account-attribute' | 'identity-attribute' | 'transform' | 'variable';

export interface CompletionItem {
  label: string;
  kind: CompletionKind;
  /** The text that replaces `replace` (quoted as JSON where the caret is in a string or a key). */
  insertText: string;
  /** The span the insertion replaces (the word or string being typed). */
  replace: Span;
  /** One line shown beside the label. */
  detail?: string;
  /** Markdown documentation. */
  documentation?: string;
}

export interface Hover {
  /** Markdown. */
  contents: string;
  span: Span;
}

/** A place in some document of the workspace. */
export interface Location extends Span {
  uri: string;
}

export interface TextEdit extends Span {
  uri: string;
  newText: string;
}

export interface DocumentSymbol {
  /** The transform's name or type, the mapping's attribute name. */
  name: string;
  /** The operation type (or "identity profile", "mapping"). */
  detail: string;
  span: Span;
  /** The span of the name shown (the "type" value, the mapping's attribute name). */
  selection: Span;
  pointer: string;
  children: DocumentSymbol[];
}

export interface CodeLens {
  span: Span;
  title: string;
  /** What the lens runs: evaluate or explain the transform at `pointer` of `uri`. */
  command: 'evaluate' | 'explain';
  uri: string;
  pointer: string;
}

/**
 * What the service knows beyond one document: the other documents (open in the editor or read
 * from the workspace's folders), the tenant model once it has loaded, and the identity values are
 * shown for. Plain data: the adapters keep it up to date.
 */
export interface Workspace {
  /** The engine that validates and evaluates (its registry is the operations offered). */
  readonly engine: Engine;
  /** Every known document by URI, the one asked about among them or not. */
  readonly documents: ReadonlyMap<string, LanguageDocument>;
  /** The tenant model, when one is configured or found and has loaded. */
  readonly tenant?: TenantModel | undefined;
  /** The identity values are shown for, with its accounts, when one is configured and loaded. */
  readonly identity?: IdentityRecords | undefined;
}

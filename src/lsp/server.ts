// The Language Server Protocol adapter: `identity-transforms lsp --stdio`. It keeps the open
// documents (incremental sync, within the bounds of documents.ts) and the settings, checks a
// document a moment after its last change, and translates between LSP's line/character
// positions (UTF-16 code units) and the language service's offsets; every answer is the
// service's. Settings (initializationOptions, or workspace/didChangeConfiguration under
// "identityTransforms"): `fixtures`, a fixture or snapshot directory (default: found by walking
// up from the files), and `identity`, whose values hover and the code lenses show.
// https://microsoft.github.io/language-server-protocol/specifications/lsp/3.17/specification/

import {
  CodeLens,
  CompletionItemKind,
  ConnectionError,
  createConnection,
  DiagnosticSeverity,
  DocumentSymbol,
  Location,
  MarkupKind,
  MessageType,
  ShowMessageNotification,
  Range,
  SymbolKind,
  TextDocumentSyncKind,
  TextEdit,
  type Connection,
  type InitializeResult,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import {
  doComplete,
  doHover,
  doRename,
  doValidation,
  evaluateLens,
  findCodeLenses,
  findDefinition,
  findDocumentSymbols,
  findReferences,
  type CompletionKind,
  type DocumentSymbol as ServiceSymbol,
  type Span,
} from '../language/index.js';
import { WorkspaceHost, type Settings } from '../language/workspace-host.js';
import type { TransformsError } from '../errors/index.js';
import { OpenDocuments } from './documents.js';
import { documentOf, memberOf, positionOf } from './requests.js';

/**
 * Milliseconds from a change to the check of its document. Changes meanwhile are applied to the
 * text only: one check follows, of the last of them (a flood of changes costs one check per
 * delay, and the diagnostics published are those of the version the editor has last).
 */
export const VALIDATION_DELAY_MS = 100;
/** Documents of refused changes remembered, so that each is said once (a client that goes on is not answered with a log line each time). */
const MAX_TOLD = 1000;

export const COMMANDS = { evaluate: 'identityTransforms.evaluate', explain: 'identityTransforms.explain' } as const;

const KINDS: Record<CompletionKind, CompletionItemKind> = {
  operation: CompletionItemKind.Function,
  attribute: CompletionItemKind.Property,
  value: CompletionItemKind.EnumMember,
  source: CompletionItemKind.Module,
  'account-attribute': CompletionItemKind.Field,
  'identity-attribute': CompletionItemKind.Field,
  transform: CompletionItemKind.Reference,
  variable: CompletionItemKind.Variable,
};

function settingsOf(value: unknown): Settings {
  const v = (value ?? {}) as Record<string, unknown>;
  const section = (v.identityTransforms ?? v) as Record<string, unknown>;
  return {
    ...(typeof section.fixtures === 'string' && section.fixtures !== '' ? { fixtures: section.fixtures } : {}),
    ...(typeof section.identity === 'string' && section.identity !== '' ? { identity: section.identity } : {}),
  };
}

/** Serve the protocol on a connection (stdio for `lsp --stdio`). */
export function startServer(connection: Connection = createConnection()): Connection {
  // A notification, not showMessageRequest: a client that does not answer requests of that kind must not fail the server.
  /**
   * Send a notification unless the connection is closed: once the client stops reading standard
   * output, a check that falls due has no one to tell (sending threw ConnectionError from a timer,
   * which ended the process with its stack trace).
   */
  const deliver = (send: () => Promise<void> | void) => {
    try {
      void send()?.catch(() => undefined);
    } catch (error) {
      if (!(error instanceof ConnectionError)) throw error;
    }
  };
  const tell = (type: MessageType, message: string) => deliver(() => connection.sendNotification(ShowMessageNotification.type, { type, message }));
  const documents = new OpenDocuments();
  /** Open documents whose last text the language service has not read yet, and those whose check is due. */
  const stale = new Set<string>();
  const due = new Map<string, NodeJS.Timeout>();
  /** The language service's document of the editor's last text. */
  const current = (uri: string) => {
    const text = documents.get(uri);
    if (stale.delete(uri) && text) host.setText(uri, text.getText());
    return host.document(uri);
  };
  const publish = (uri: string) => {
    const text = documents.get(uri);
    const doc = current(uri);
    if (!text || !doc) return;
    const range = (s: Span) => Range.create(text.positionAt(s.offset), text.positionAt(s.offset + s.length));
    const refused = documents.refusal(uri);
    const diagnostics = doValidation(doc, host.workspace()).map((d) => ({
      range: range(d),
      severity: d.severity === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
      code: d.code,
      source: 'identity-transforms',
      message: d.message,
      ...(d.suggestion !== undefined ? { data: { suggestion: d.suggestion, pointer: d.pointer } } : {}),
    }));
    if (refused) {
      const message = `${refused.message}. These diagnostics are of version ${text.version}, the last applied: close and reopen the document`;
      diagnostics.unshift({ range: Range.create(0, 0, 0, 0), severity: DiagnosticSeverity.Error, code: refused.code, source: 'identity-transforms', message });
    }
    deliver(() => connection.sendDiagnostics({ uri, version: text.version, diagnostics }));
  };
  /** Check a document once the changes of the next VALIDATION_DELAY_MS are in (a check already due takes them). */
  const check = (uri: string) => {
    stale.add(uri);
    if (due.has(uri)) return;
    due.set(uri, setTimeout(() => {
      due.delete(uri);
      publish(uri);
    }, VALIDATION_DELAY_MS));
  };
  const told = new Set<string>();
  const refuse = (uri: string, error: TransformsError) => {
    if (told.has(uri)) return;
    if (told.size >= MAX_TOLD) told.clear();
    told.add(uri);
    deliver(() => connection.console.error(`${error.code}: ${error.message}`));
    publish(uri);
  };
  let shown = 0;
  // Something more is known (the tenant model, the identity, the folder's files): check again.
  const host: WorkspaceHost = new WorkspaceHost(() => {
    for (const problem of host.problems.slice(shown)) tell(MessageType.Warning, `identity-transforms: ${problem}`);
    shown = host.problems.length;
    for (const d of documents.all()) publish(d.uri);
  });

  /** The document and its text for a request, or undefined for one the server does not hold. */
  const get = (uri: string) => {
    const text = documents.get(uri);
    const doc = current(uri);
    return text && doc ? { text, doc, range: (s: Span) => Range.create(text.positionAt(s.offset), text.positionAt(s.offset + s.length)) } : undefined;
  };
  /** A location in any document of the workspace (one not open is measured on its file's text). */
  const location = (l: { uri: string; offset: number; length: number }) => {
    const text = documents.get(l.uri) ?? TextDocument.create(l.uri, 'json', 0, host.document(l.uri)?.text ?? '');
    return Location.create(l.uri, Range.create(text.positionAt(l.offset), text.positionAt(l.offset + l.length)));
  };

  connection.onInitialize((params): InitializeResult => {
    host.configure(settingsOf(params.initializationOptions));
    for (const folder of params.workspaceFolders ?? (params.rootUri ? [{ uri: params.rootUri }] : [])) void host.addFolder(folder.uri);
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        completionProvider: { triggerCharacters: ['"', '$', '{'] },
        hoverProvider: true,
        definitionProvider: true,
        referencesProvider: true,
        renameProvider: true,
        documentSymbolProvider: true,
        codeLensProvider: { resolveProvider: false },
        executeCommandProvider: { commands: Object.values(COMMANDS) },
      },
      serverInfo: { name: 'identity-transforms' },
    };
  });
  connection.onDidChangeConfiguration((change) => {
    host.configure(settingsOf(change.settings));
    for (const d of documents.all()) publish(d.uri);
  });
  connection.onDidOpenTextDocument((params) => {
    const uri = documentOf('textDocument/didOpen', params);
    const { languageId, version, text } = params.textDocument;
    const error = documents.open(uri, languageId, version, text);
    told.delete(uri);
    if (error) return refuse(uri, error);
    check(uri);
  });
  connection.onDidChangeTextDocument((params) => {
    const error = documents.change(params);
    const uri = String(params?.textDocument?.uri);
    if (error) return refuse(uri, error);
    if (!documents.refusal(uri)) check(uri);
  });
  connection.onDidCloseTextDocument((params) => {
    const uri = documentOf('textDocument/didClose', params);
    documents.close(uri);
    host.close(uri);
    stale.delete(uri);
    clearTimeout(due.get(uri));
    due.delete(uri);
    told.delete(uri);
    deliver(() => connection.sendDiagnostics({ uri, diagnostics: [] }));
  });

  connection.onCompletion((params) => {
    const { uri, position } = positionOf('textDocument/completion', params);
    const at = get(uri);
    if (!at) return [];
    return doComplete(at.doc, at.text.offsetAt(position), host.workspace()).map((item) => ({
      label: item.label,
      kind: KINDS[item.kind],
      textEdit: TextEdit.replace(at.range(item.replace), item.insertText),
      filterText: item.insertText,
      ...(item.detail !== undefined ? { detail: item.detail } : {}),
      ...(item.documentation !== undefined ? { documentation: { kind: MarkupKind.Markdown, value: item.documentation } } : {}),
    }));
  });
  connection.onHover((params) => {
    const { uri, position } = positionOf('textDocument/hover', params);
    const at = get(uri);
    const hover = at && doHover(at.doc, at.text.offsetAt(position), host.workspace());
    return hover ? { contents: { kind: MarkupKind.Markdown, value: hover.contents }, range: at.range(hover.span) } : null;
  });
  connection.onDefinition((params) => {
    const { uri, position } = positionOf('textDocument/definition', params);
    const at = get(uri);
    return at ? findDefinition(at.doc, at.text.offsetAt(position), host.workspace()).map(location) : [];
  });
  connection.onReferences((params) => {
    const { uri, position } = positionOf('textDocument/references', params);
    const { includeDeclaration } = memberOf<{ includeDeclaration?: unknown }>('textDocument/references', params, 'context', 'object');
    const at = get(uri);
    return at ? findReferences(at.doc, at.text.offsetAt(position), host.workspace(), includeDeclaration === true).map(location) : [];
  });
  connection.onRenameRequest((params) => {
    const { uri, position } = positionOf('textDocument/rename', params);
    const newName = memberOf<string>('textDocument/rename', params, 'newName', 'string');
    const at = get(uri);
    if (!at) return null;
    const changes: Record<string, TextEdit[]> = {};
    for (const edit of doRename(at.doc, at.text.offsetAt(position), newName, host.workspace())) {
      (changes[edit.uri] ??= []).push(TextEdit.replace(location(edit).range, edit.newText));
    }
    return { changes };
  });
  connection.onDocumentSymbol((params) => {
    const at = get(documentOf('textDocument/documentSymbol', params));
    const convert = (s: ServiceSymbol): DocumentSymbol => DocumentSymbol.create(s.name || '(unnamed)', s.detail, s.detail === 'mapping' ? SymbolKind.Field : SymbolKind.Function, at!.range(s.span), at!.range(s.selection), s.children.map(convert));
    return at ? findDocumentSymbols(at.doc).map(convert) : [];
  });
  connection.onCodeLens((params) => {
    const at = get(documentOf('textDocument/codeLens', params));
    if (!at) return [];
    return findCodeLenses(at.doc, host.workspace()).map((l) => {
      const lens = CodeLens.create(at.range(l.span));
      lens.command = { title: l.title, command: COMMANDS[l.command], arguments: [l.uri, l.pointer] };
      return lens;
    });
  });
  connection.onExecuteCommand((params) => {
    const [uri, pointer] = (Array.isArray(params?.arguments) ? params.arguments : []) as [unknown, unknown];
    const command = params?.command === COMMANDS.explain ? 'explain' : 'evaluate';
    const doc = typeof uri === 'string' ? host.document(uri) : undefined;
    if (!doc || typeof pointer !== 'string') return { text: 'the command needs the URI of an open document and a JSON Pointer' };
    const { text } = evaluateLens(doc, command, pointer, host.workspace());
    tell(MessageType.Info, text);
    return { text };
  });

  connection.listen();
  return connection;
}

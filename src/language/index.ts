// The language service: pure functions over a document's text and a workspace model, answering
// in offsets and spans with coded findings — no protocol types. The LSP server (lsp/) and the
// MCP server (mcp/) are adapters over it, as a browser page can be.

export { parseDocument, type LanguageDocument, type Span } from './document.js';
export { doValidation } from './diagnostics.js';
export { doComplete } from './completion.js';
export { doHover } from './hover.js';
export { findDefinition, findReferences, doRename } from './navigation.js';
export { findDocumentSymbols } from './symbols.js';
export { findCodeLenses, evaluateLens } from './lenses.js';
export { transformRoots, explainRoot, type TransformRoot, type Outcome } from './evaluation.js';
export { findFixturesDir, loadTenantModel, loadIdentityRecords, type TenantModel, type IdentityRecords, type IdentityName } from './tenant-model.js';
export type { CodeLens, CompletionItem, CompletionKind, Diagnostic, DocumentSymbol, Hover, Location, TextEdit, Workspace } from './types.js';

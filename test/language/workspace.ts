// The workspace of the language service's tests: the bundled fixtures' tenant model and
// identity, the engine, and documents written in the tests with a caret marker `|`.

import { resolve } from 'node:path';
import { createEngine } from '../../src/engine/engine.js';
import { loadIdentityRecords, loadTenantModel, parseDocument, type IdentityRecords, type LanguageDocument, type TenantModel, type Workspace } from '../../src/language/index.js';

export const FIXTURES = resolve(import.meta.dirname, '../../fixtures');

/** A text with one caret marker `|`: the text without it, and the caret's offset. */
export function caret(marked: string): { text: string; offset: number } {
  const offset = marked.indexOf('|');
  if (offset < 0 || marked.indexOf('|', offset + 1) >= 0) throw new Error(`expected one | in ${marked}`);
  return { text: marked.slice(0, offset) + marked.slice(offset + 1), offset };
}

let tenant: TenantModel | undefined;
let identity: IdentityRecords | null | undefined;

/** The bundled fixtures' model and the identity fatima.schroder (loaded once for a test file). */
export async function bundled(): Promise<{ tenant: TenantModel; identity: IdentityRecords }> {
  tenant ??= await loadTenantModel(FIXTURES);
  identity ??= await loadIdentityRecords(FIXTURES, 'fatima.schroder');
  return { tenant, identity: identity! };
}

/** A workspace of the given documents (uri → text). */
export function workspace(texts: Record<string, string>, extra: { tenant?: TenantModel; identity?: IdentityRecords } = {}): Workspace {
  const documents = new Map<string, LanguageDocument>(Object.entries(texts).map(([uri, text]) => [uri, parseDocument(uri, text)]));
  return { engine: createEngine(), documents, ...extra };
}

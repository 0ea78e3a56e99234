// Document symbols: the transform tree (each node named by its type, the root by its name), and
// for a profile, each mapping (or create-profile field) above its transform.

import type * as Jsonc from 'jsonc-parser';
import { pointerJoin } from '../errors/index.js';
import { member, span, type LanguageDocument } from './document.js';
import { transformRoots } from './evaluation.js';
import type { DocumentSymbol } from './types.js';

function nodeAt(tree: Jsonc.Node, pointer: string): Jsonc.Node | undefined {
  let node: Jsonc.Node | undefined = tree;
  for (const token of pointer.split('/').slice(1).map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'))) {
    if (!node) return undefined;
    node = node.type === 'array' ? node.children?.[Number(token)] : member(node, token);
  }
  return node;
}

/** The transforms nested in a node's value (attributes, lists of them, values of a lookup table…), outermost first. */
function nested(node: Jsonc.Node, pointer: string): DocumentSymbol[] {
  const out: DocumentSymbol[] = [];
  const visit = (n: Jsonc.Node, at: string) => {
    if (n.type === 'object') {
      const type = member(n, 'type');
      if (type?.type === 'string') {
        out.push(symbol(n, at, String(type.value), type));
        return;
      }
      for (const p of n.children ?? []) {
        const key = p.children?.[0]?.value;
        if (typeof key === 'string' && p.children?.[1]) visit(p.children[1], pointerJoin(at, key));
      }
    } else if (n.type === 'array') {
      n.children?.forEach((c, i) => visit(c, pointerJoin(at, i)));
    }
  };
  const attributes = member(node, 'attributes');
  if (attributes) visit(attributes, pointerJoin(pointer, 'attributes'));
  return out;
}

function symbol(node: Jsonc.Node, pointer: string, name: string, selection: Jsonc.Node): DocumentSymbol {
  const type = member(node, 'type');
  return { name, detail: String(type?.value ?? ''), span: span(node), selection: span(selection), pointer, children: nested(node, pointer) };
}

/** The outline of a document. */
export function findDocumentSymbols(doc: LanguageDocument): DocumentSymbol[] {
  const tree = doc.tree;
  if (!tree) return [];
  const out: DocumentSymbol[] = [];
  for (const root of transformRoots(doc)) {
    const node = nodeAt(tree, root.pointer);
    if (!node) continue;
    if (root.pointer === '') {
      const name = member(node, 'name');
      out.push(symbol(node, '', root.label, name ?? member(node, 'type') ?? node));
      continue;
    }
    // A mapping or a field: its own symbol (named by the attribute it computes) holds the transform.
    const holder = node.parent?.parent;
    const inner = symbol(node, root.pointer, String(member(node, 'type')?.value ?? ''), member(node, 'type') ?? node);
    const label = member(holder, 'identityAttributeName') ?? member(holder, 'name');
    out.push({ name: root.label, detail: 'mapping', span: span(holder ?? node), selection: span(label ?? node), pointer: root.pointer.replace(/\/(transformDefinition|transform)$/, ''), children: [inner] });
  }
  return out;
}

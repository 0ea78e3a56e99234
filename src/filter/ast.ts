// The one AST of both filter languages (sailpoint.object.Filter,
// https://developer.sailpoint.com/docs/extensibility/rules/java-docs, and the collection `filters`
// of https://developer.sailpoint.com/docs/api/standard-collection-parameters): plain data, every
// node carrying the source range it was parsed from.

/** Half-open character range `[start, end)` in the filter text. */
export interface SourceRange {
  readonly start: number;
  readonly end: number;
}

/**
 * A literal on the right-hand side of a leaf. `identifier` is a bare word in value position
 * (an enum constant in the object language, `val1` in the API docs' precedence examples); it
 * evaluates as its text. `datetime` is an unquoted ISO 8601 timestamp of the API language.
 */
export type FilterLiteral =
  | { readonly type: 'string'; readonly value: string }
  | { readonly type: 'number'; readonly value: number }
  | { readonly type: 'boolean'; readonly value: boolean }
  | { readonly type: 'null' }
  | { readonly type: 'datetime'; readonly value: string }
  | { readonly type: 'identifier'; readonly value: string };

export type CompareOp = 'eq' | 'ne' | 'lt' | 'gt' | 'le' | 'ge';
export type LikeMode = 'start' | 'end' | 'anywhere';

/** Every node carries the half-open range of the text it was parsed from. */
export interface Located {
  readonly range: SourceRange;
}

export interface AndNode extends Located {
  readonly kind: 'and';
  /** Two or more operands of one unparenthesised chain `a && b && c`. */
  readonly children: readonly FilterNode[];
}
export interface OrNode extends Located {
  readonly kind: 'or';
  readonly children: readonly FilterNode[];
}
export interface NotNode extends Located {
  readonly kind: 'not';
  readonly operand: FilterNode;
}
export interface CompareNode extends Located {
  readonly kind: 'compare';
  readonly op: CompareOp;
  readonly property: string;
  readonly value: FilterLiteral;
  readonly ignoreCase: boolean;
}
export interface InNode extends Located {
  readonly kind: 'in';
  readonly property: string;
  readonly values: readonly FilterLiteral[];
  readonly ignoreCase: boolean;
}
export interface ContainsAllNode extends Located {
  readonly kind: 'containsAll';
  readonly property: string;
  readonly values: readonly FilterLiteral[];
  readonly ignoreCase: boolean;
}
export interface LikeNode extends Located {
  readonly kind: 'like';
  readonly mode: LikeMode;
  readonly property: string;
  readonly value: FilterLiteral;
  readonly ignoreCase: boolean;
}
/** isNull / notNull / isEmpty (object language), `isnull` (API), `pr` is `present`. */
export interface UnaryTestNode extends Located {
  readonly kind: 'isNull' | 'notNull' | 'isEmpty' | 'present';
  readonly property: string;
}
/** `prop.join(Class.prop)`: parses, never compiles (FILTER_UNSUPPORTED). */
export interface JoinNode extends Located {
  readonly kind: 'join';
  readonly property: string;
  readonly target: string;
}
/** `prop.collectionCondition("…")`: the argument is the element filter's source text. */
export interface CollectionConditionNode extends Located {
  readonly kind: 'collectionCondition';
  readonly property: string;
  readonly condition: string;
}
/** `prop.subquery("p", Class, "q", "filter")`: kept as its literal arguments. */
export interface SubqueryNode extends Located {
  readonly kind: 'subquery';
  readonly property: string;
  readonly args: readonly FilterLiteral[];
}

export type FilterNode =
  | AndNode
  | OrNode
  | NotNode
  | CompareNode
  | InNode
  | ContainsAllNode
  | LikeNode
  | UnaryTestNode
  | JoinNode
  | CollectionConditionNode
  | SubqueryNode;

export type FilterKind = FilterNode['kind'];
export type LeafNode = Exclude<FilterNode, AndNode | OrNode | NotNode>;

/** The node kinds that parse but that no back end evaluates. */
export const UNSUPPORTED_KINDS: ReadonlySet<FilterKind> = new Set(['join', 'collectionCondition', 'subquery']);

export function isLeaf(node: FilterNode): node is LeafNode {
  return node.kind !== 'and' && node.kind !== 'or' && node.kind !== 'not';
}

/**
 * The shape the ASTs of all three query languages share (the two filter languages here, the
 * search query language in ./search/ast.ts): every node has a `kind` and a source range; `and` and
 * `or` hold two or more `children`, `not` one `operand`; every other kind is a leaf.
 */
export interface QueryNode {
  readonly kind: string;
  readonly range: SourceRange;
}

/** Direct children of a node (none for leaves). */
export function childrenOf<N extends QueryNode>(node: N): readonly N[] {
  switch (node.kind) {
    case 'and':
    case 'or':
      return (node as unknown as { readonly children: readonly N[] }).children;
    case 'not':
      return [(node as unknown as { readonly operand: N }).operand];
    default:
      return [];
  }
}

/**
 * Depth-first, pre-order visit of every node. `visit` returning false skips that node's
 * children. Iterative so that a deep AST cannot overflow the stack.
 */
export function walk<N extends QueryNode>(node: N, visit: (node: N, depth: number) => boolean | void): void {
  const stack: [N, number][] = [[node, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (visit(current, depth) === false) continue;
    const kids = childrenOf(current);
    for (let i = kids.length - 1; i >= 0; i--) stack.push([kids[i]!, depth + 1]);
  }
}

/** Every node for which `test` holds, in pre-order. */
export function collect<N extends QueryNode, T extends N>(node: N, test: (node: N) => node is T): T[];
export function collect<N extends QueryNode>(node: N, test: (node: N) => boolean): N[];
export function collect<N extends QueryNode>(node: N, test: (node: N) => boolean): N[] {
  const out: N[] = [];
  walk(node, (n) => {
    if (test(n)) out.push(n);
  });
  return out;
}

/** Every property name the filter reads, deduplicated, in order of first use. */
export function filterProperties(node: FilterNode): string[] {
  const seen = new Set<string>();
  walk(node, (n) => {
    if (isLeaf(n)) seen.add(n.property);
  });
  return [...seen];
}

/** Number of nodes in the tree (the `maxNodes` limit counts these). */
export function countNodes(node: QueryNode): number {
  let n = 0;
  walk(node, () => {
    n++;
  });
  return n;
}

/** Deep copy of an AST with every range replaced by `{0,0}`: for comparing structure only. */
export function stripRanges<N extends QueryNode>(node: N): N {
  const zero: SourceRange = { start: 0, end: 0 };
  switch (node.kind) {
    case 'and':
    case 'or':
      return { kind: node.kind, range: zero, children: childrenOf(node).map(stripRanges) } as unknown as N;
    case 'not':
      return { kind: 'not', range: zero, operand: stripRanges(childrenOf(node)[0]!) } as unknown as N;
    default:
      return { ...node, range: zero };
  }
}

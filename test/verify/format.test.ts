// verify's markdown report (src/verify/format.ts) is pasted into issues and pull requests: the
// names and values in it come from the tenant (an identity's name, a stored value) and from the
// profile (an attribute's name), and none may end a table row, close the <details> block, open a
// tag of its own or end the fence of an explanation.

import { describe, expect, it } from 'vitest';
import { formatVerify, type VerifyReport } from '../../src/verify/index.js';

const HOSTILE_NAME = 'ada|</details>\n\n# taken <img src=x>`';
const HOSTILE_ID = 'id`<b>';
const HOSTILE_ATTRIBUTE = 'uid`</code><img src=y>';
const HOSTILE_VALUE = 'a|b\n```\n<script>x</script>';

function report(): VerifyReport {
  return {
    profile: 'Employees <i>',
    tenant: 'fixtures',
    now: null,
    identities: { evaluated: 1, compared: 1, missing: 0, stale: 0, otherProfile: 0 },
    totals: { compared: 1, agree: 0, differ: 1, notComparable: 0 },
    errorsByCode: {},
    complete: true,
    attributes: [
      {
        attribute: HOSTILE_ATTRIBUTE,
        compared: 1,
        agree: 0,
        differ: 1,
        notComparable: 0,
        byKind: { differ: 1 },
        groups: [
          {
            by: 'pair',
            signature: 'different',
            platform: HOSTILE_VALUE,
            ours: 'ada',
            count: 1,
            examples: [{ identityId: HOSTILE_ID, identityName: HOSTILE_NAME, platform: HOSTILE_VALUE, ours: 'ada' }],
            explained: { identityId: HOSTILE_ID, value: 'ada', trace: { type: 'static', pointer: '', input: null, value: '```\n</details>', children: [] } },
          },
        ],
      },
    ],
  };
}

/** The markdown with every code fence's content removed (what renders as Markdown and HTML). */
function outsideFences(markdown: string): string {
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    const open = /^(`{3,})/.exec(line)?.[1];
    if (fence === null && open !== undefined) fence = open;
    else if (fence !== null && line.startsWith(fence) && line.trim() === fence) fence = null;
    else if (fence === null) out.push(line);
  }
  expect(fence).toBeNull();
  return out.join('\n');
}

describe('formatVerify markdown', () => {
  const markdown = formatVerify(report(), 'markdown');
  const rendered = outsideFences(markdown);

  it('opens no tag of the tenant\'s or the profile\'s: only its own <details>, <summary> and <code>', () => {
    const tags = [...rendered.matchAll(/<\/?([a-z]+)/gi)].map((m) => m[1]!.toLowerCase());
    expect(new Set(tags)).toEqual(new Set(['details', 'summary', 'code']));
    expect(rendered.match(/<details>/g)).toHaveLength(1);
    expect(rendered.match(/<\/details>/g)).toHaveLength(1);
  });

  it('keeps each example on one row of three cells', () => {
    const rows = rendered.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| ---') && !l.startsWith('| Identity') && !l.startsWith('| Attribute'));
    const example = rows.filter((l) => l.includes('ada'));
    expect(example).toHaveLength(1);
    // Cells split at unescaped pipes.
    expect(example[0]!.split(/(?<!\\)\|/).length - 2).toBe(3);
    expect(rendered).not.toMatch(/^# taken/m);
  });

  it('keeps the explanation inside its fence, the trace\'s backticks included', () => {
    expect(markdown).toContain('</details>');
    const fenced = markdown.slice(markdown.indexOf('How ours was computed'));
    expect(fenced).toMatch(/^````$/m);
  });
});

describe('formatVerify text', () => {
  const clearing = report();
  clearing.tenant = 'fixtures\u001b[2J';
  clearing.attributes[0]!.groups[0]!.examples[0]!.identityName = '\u001b[2J';
  clearing.attributes[0]!.groups[0]!.examples.push({ identityId: 'id2', identityName: 'bob\n  attribute values: 1 compared, 1 agree', platform: 'x', ours: 'x' });
  const text = formatVerify(clearing, 'text');

  it('shows an identity or tenant name holding an escape sequence escaped, never the escape itself', () => {
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    expect(text).toContain('    \\u001b[2J (id`<b>): platform ');
    expect(text).toContain('over fixtures\\u001b[2J');
  });

  it('keeps a name with a line break on its own line: no report line is forged', () => {
    expect(text).toContain('    bob\\n  attribute values: 1 compared, 1 agree (id2)');
    expect(text.split('\n').filter((l) => l.startsWith('  attribute values:'))).toHaveLength(1);
  });
});

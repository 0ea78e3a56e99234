// What a thrown value says, for the message of the coded error that reports it. Code outside
// the library (a rules module) may throw anything: null, an object without a prototype, one
// whose toString throws, a string of any size. Describing it must neither throw nor carry an
// unbounded message into every identity's result.

/** Characters of a thrown value's message kept in a coded error's message. */
const MAX_MESSAGE = 500;

function describe(value: unknown): string {
  if (value instanceof Error) return String(value.message);
  if (typeof value === 'string') return value;
  return String(value);
}

/** The message of a thrown value, at most MAX_MESSAGE characters; never throws. */
export function thrownMessage(value: unknown): string {
  let text: string;
  try {
    text = describe(value);
  } catch {
    try {
      text = `${Object.prototype.toString.call(value)} that cannot be shown as text`;
    } catch {
      text = 'a value that cannot be shown as text';
    }
  }
  return text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}…` : text;
}

// Bounds of the playground's request members that the page checks too (a shared link's example
// and identity), in a module of its own so that the page's bundle takes them without the schemas'
// validator.

/** Characters a file or identity name of a request may hold (at least one). */
export const MAX_NAME = 1000;

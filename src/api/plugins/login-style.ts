// The stylesheet of the login listener's pages, served by that listener at LOGIN_STYLESHEET so the
// pages' Content-Security-Policy can allow `style-src 'self'` and nothing inline.

export const LOGIN_STYLESHEET = '/assets/login.css';

export const LOGIN_CSS = `:root {
  color-scheme: light dark;
  --bg: #f3f5f8;
  --card: #ffffff;
  --text: #1d2430;
  --muted: #5b6576;
  --border: #cfd6e0;
  --accent: #1a5fb4;
  --accent-text: #ffffff;
  --focus: #f5a623;
  --error-bg: #fdecec;
  --error-text: #a4161a;
  --error-border: #e5989b;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #14181f;
    --card: #1f252e;
    --text: #e7ebf1;
    --muted: #a5afbf;
    --border: #3a4350;
    --accent: #5b9bed;
    --accent-text: #0b1320;
    --error-bg: #3b1618;
    --error-text: #ffb4b4;
    --error-border: #8c3b3f;
  }
}
*, *::before, *::after { box-sizing: border-box; }
html { font-size: 100%; }
body {
  margin: 0;
  min-height: 100vh;
  display: flex;
  align-items: center;
  justify-content: center;
  padding: 1.5rem 1rem;
  background: var(--bg);
  color: var(--text);
  font: 1rem/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
}
main {
  width: 100%;
  max-width: 24rem;
  background: var(--card);
  border: 1px solid var(--border);
  border-radius: 0.75rem;
  padding: 2rem 1.75rem;
  box-shadow: 0 0.25rem 1.5rem rgb(0 0 0 / 0.08);
}
.tenant {
  margin: 0 0 0.25rem;
  color: var(--muted);
  font-size: 0.8125rem;
  font-weight: 600;
  letter-spacing: 0.06em;
  text-transform: uppercase;
}
h1 { margin: 0 0 0.25rem; font-size: 1.375rem; line-height: 1.25; }
.lead { margin: 0 0 1.5rem; color: var(--muted); }
.error {
  margin: 0 0 1.25rem;
  padding: 0.75rem 1rem;
  border: 1px solid var(--error-border);
  border-left-width: 0.3rem;
  border-radius: 0.375rem;
  background: var(--error-bg);
  color: var(--error-text);
  font-weight: 600;
}
form { display: grid; gap: 0.375rem; }
label { font-weight: 600; font-size: 0.9375rem; }
input {
  width: 100%;
  margin-bottom: 0.75rem;
  padding: 0.625rem 0.75rem;
  border: 1px solid var(--border);
  border-radius: 0.375rem;
  background: var(--card);
  color: var(--text);
  font: inherit;
}
input[aria-invalid="true"] { border-color: var(--error-text); }
button {
  margin-top: 0.5rem;
  padding: 0.7rem 1rem;
  border: 0;
  border-radius: 0.375rem;
  background: var(--accent);
  color: var(--accent-text);
  font: inherit;
  font-weight: 600;
  cursor: pointer;
}
button:hover { filter: brightness(1.08); }
:focus-visible, .error:focus { outline: 3px solid var(--focus); outline-offset: 2px; }
.details { color: var(--muted); font-size: 0.875rem; overflow-wrap: anywhere; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.875em; }
`;

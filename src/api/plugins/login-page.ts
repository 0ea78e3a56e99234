// The pages of the login listener: the login form of the authorization endpoint (RFC 6749 §4.1.1:
// the authorization server authenticates the resource owner), the page that tells a person why a
// request cannot go back to the client (RFC 6749 §4.1.2.1), and the logout page. No script and no
// inline style: the pages' Content-Security-Policy (login.ts) allows only the listener's own
// stylesheet.

import { LOGIN_STYLESHEET } from './login-style.js';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A page; `eyebrow` puts the tenant name above a heading that does not say it. */
function layout(title: string, tenantName: string, body: string, eyebrow = true): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="referrer" content="no-referrer">
    <title>${escapeHtml(title)} · ${escapeHtml(tenantName)}</title>
    <link rel="stylesheet" href="${LOGIN_STYLESHEET}">
  </head>
  <body>
    <main>
${eyebrow ? `      <p class="tenant">${escapeHtml(tenantName)}</p>\n` : ''}${body}
    </main>
  </body>
</html>
`;
}

export interface LoginPageModel {
  tenantName: string;
  clientName: string;
  /** The authorization request, carried through the form as hidden fields. */
  hidden: Record<string, string>;
  error?: string;
  username?: string;
}

export function loginPage(m: LoginPageModel): string {
  const hidden = Object.entries(m.hidden)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join('\n        ');
  const failed = m.error !== undefined;
  // After a failed attempt the message takes the focus (it is announced as an alert), and both
  // fields point at it; otherwise the first empty field has the focus.
  const error = failed ? `      <p class="error" id="login-error" role="alert" tabindex="-1" autofocus>${escapeHtml(m.error!)}</p>\n` : '';
  const invalid = failed ? ' aria-invalid="true" aria-describedby="login-error"' : '';
  const user = m.username ?? '';
  return layout(
    'Sign in',
    m.tenantName,
    `      <h1>Sign in to ${escapeHtml(m.tenantName)}</h1>
      <p class="lead">to continue to ${escapeHtml(m.clientName)}</p>
${error}      <form method="post" action="/oauth/authorize">
        ${hidden}
        <label for="username">Username</label>
        <input id="username" name="username" autocomplete="username" autocapitalize="none" spellcheck="false" required value="${escapeHtml(user)}"${invalid}${!failed && user === '' ? ' autofocus' : ''}>
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required${invalid}${!failed && user !== '' ? ' autofocus' : ''}>
        <button type="submit">Sign in</button>
      </form>`,
    false,
  );
}

export interface ErrorPageModel {
  tenantName: string;
  status: number;
  message: string;
  trackingId: string;
}

/**
 * A request of the login listener that failed where no redirect to the client is allowed: a bad
 * authorization request, or too many attempts.
 */
export function errorPage(m: ErrorPageModel): string {
  const busy = m.status === 429;
  const title = busy ? 'Too many attempts' : 'Cannot sign in';
  const advice = busy
    ? 'Wait a minute, then go back to the application and sign in again.'
    : 'The application that sent you here made a request this sign-in page cannot accept. Go back to the application and try again, or tell its owner.';
  return layout(
    title,
    m.tenantName,
    `      <h1>${title}</h1>
      <p class="error" role="alert">${escapeHtml(m.message)}</p>
      <p>${advice}</p>
      <p class="details">Status ${m.status} · tracking id <code>${escapeHtml(m.trackingId)}</code></p>`,
  );
}

export function logoutPage(tenantName: string): string {
  return layout('Signed out', tenantName, '      <h1>Signed out</h1>\n      <p class="lead">You are signed out.</p>');
}

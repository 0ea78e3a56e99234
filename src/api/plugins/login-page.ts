// The small login form of the authorization endpoint (reference/platform-api.md §5.4: "The user
// is sent to the authorize endpoint on {login_url}, logs in, and is redirected").

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export interface LoginPageModel {
  clientName: string;
  /** The authorization request, carried through the form as hidden fields. */
  hidden: Record<string, string>;
  error?: string;
  username?: string;
}

export function loginPage(m: LoginPageModel): string {
  const hidden = Object.entries(m.hidden)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join('\n      ');
  const error = m.error === undefined ? '' : `<p class="error" role="alert">${escapeHtml(m.error)}</p>`;
  return `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>Sign in</title></head>
  <body>
    <h1>Sign in to ${escapeHtml(m.clientName)}</h1>
    ${error}
    <form method="post" action="/oauth/authorize">
      ${hidden}
      <label>Username <input name="username" autocomplete="username" value="${escapeHtml(m.username ?? '')}" required></label>
      <label>Password <input name="password" type="password" autocomplete="current-password" required></label>
      <button type="submit">Sign in</button>
    </form>
  </body>
</html>
`;
}

export function logoutPage(): string {
  return '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Signed out</title></head><body><p>You are signed out.</p></body></html>\n';
}

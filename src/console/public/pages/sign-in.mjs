import { useState } from 'preact/hooks';
import { html } from '../html.mjs';
import { api } from '../api.mjs';

/** Outside sandbox mode: the admin token, exchanged once for a session cookie the page's scripts cannot read. */
export function SignIn({ onSignedIn }) {
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (event) => {
    event.preventDefault();
    const token = event.currentTarget.elements.token.value;
    setBusy(true);
    setError('');
    try {
      await api.signIn(token);
      onSignedIn();
    } catch (e) {
      setError(e.message);
    } finally {
      setBusy(false);
    }
  };
  return html`<main id="main" class="signin" tabindex="-1">
    <h1>Sign in to the intrabot console</h1>
    <p>Enter the runtime's admin token (<code>INTRABOT_ADMIN_TOKEN</code>). It is sent once and exchanged for a session that ends after an hour without use.</p>
    <form onSubmit=${submit}>
      <label
        >Admin token
        <input
          name="token"
          type="password"
          autocomplete="current-password"
          required
          aria-describedby=${error ? 'signin-error' : undefined}
          aria-invalid=${error ? 'true' : undefined}
        />
      </label>
      ${error ? html`<p id="signin-error" class="error-text" role="alert">${error}</p>` : null}
      <div><button class="primary" type="submit" disabled=${busy}>Sign in</button></div>
    </form>
  </main>`;
}

/** Connected mode without an admin token: the console stays off, and says how to turn it on. */
export function Off() {
  return html`<main id="main" class="signin" tabindex="-1">
    <h1>The console is off</h1>
    <p>Outside sandbox mode the console needs an admin token: set <code>INTRABOT_ADMIN_TOKEN</code> and restart the runtime, then sign in with it.</p>
  </main>`;
}

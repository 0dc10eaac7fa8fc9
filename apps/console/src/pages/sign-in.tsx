import { useState } from 'preact/hooks';
import { Session, signIn } from '../api';
import { Problem, usePageTitle } from '../ui';

/** The sign-in form; `notice` says why it is shown (the session ended) until the person signs in. */
export function SignInPage({ onSignedIn, notice }: { onSignedIn: (s: Session) => void; notice?: string | null }) {
  usePageTitle('Sign in');
  const [shownNotice, setShownNotice] = useState(notice ?? null);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setProblem(null);
    setShownNotice(null);
    try {
      onSignedIn(await signIn(email.trim(), password));
    } catch (err) {
      setProblem((err as Error).message);
      setBusy(false);
    }
  };
  return (
    <main class="sign-in">
      <h1 tabIndex={-1}>Sign in</h1>
      {shownNotice && <p class="notice" role="alert">{shownNotice}</p>}
      <form onSubmit={submit}>
        <label for="email">Email</label>
        <input id="email" type="email" autocomplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        <label for="password">Password</label>
        <input id="password" type="password" autocomplete="current-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
        <Problem text={problem} />
        <button type="submit" disabled={busy}>Sign in</button>
      </form>
    </main>
  );
}

import { useState } from 'preact/hooks';
import { Session, signIn } from '../api';
import { Problem } from '../ui';

export function SignInPage({ onSignedIn }: { onSignedIn: (s: Session) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setProblem(null);
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

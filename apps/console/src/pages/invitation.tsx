import { useState } from 'preact/hooks';
import { LIMITS } from '@app/contracts/models/limits';
import { acceptInvitation, ApiError, Session } from '../api';
import { hrefOf } from '../routes';
import { Problem, useInFlight, usePageTitle } from '../ui';

/** The service's rule for a password (field.password), said before the person tries. */
const MIN_PASSWORD = LIMITS.passwordMinLength;
const MAX_PASSWORD = LIMITS.passwordMaxLength;

/**
 * An invitation link (`#/invitation/{token}`), opened signed out: the invited person chooses a
 * password and is signed in, then taken to the rooms. A link that is no longer good (used,
 * expired, withdrawn or mistyped: the service answers 404 for each alike) says so, with the way
 * to sign in instead.
 */
export function InvitationPage({ token, signedInAs, onSignedIn }: {
  token: string; signedInAs: string | null; onSignedIn: (s: Session) => void;
}) {
  usePageTitle('Choose a password');
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [gone, setGone] = useState<string | null>(null);
  const [busy, whileAccepting] = useInFlight();

  const submit = (e: Event) => {
    e.preventDefault();
    setProblem(null);
    if (password !== again) {
      setProblem('The two passwords differ: type the same one twice.');
      return;
    }
    return whileAccepting(async () => {
      try {
        const session = await acceptInvitation(token, password);
        location.hash = hrefOf({ page: 'rooms' });
        onSignedIn(session);
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) setGone(err.message);
        else setProblem((err as Error).message);
      }
    });
  };

  if (gone) {
    return (
      <main class="sign-in">
        <h1 tabIndex={-1}>This invitation cannot be used</h1>
        <p role="alert">{gone}</p>
        <p>An invitation link works once, until it expires. Ask a group admin for a new one, or sign in if you have chosen your password already.</p>
        <p><a href={hrefOf({ page: 'rooms' })}>Sign in</a></p>
      </main>
    );
  }
  return (
    <main class="sign-in">
      <h1 tabIndex={-1}>Choose a password</h1>
      <p>You were invited to the chat. Choose the password you will sign in with; your e-mail address is your user name.</p>
      {signedInAs && <p class="warn">You are signed in as {signedInAs}: choosing a password here signs you in as the invited person instead.</p>}
      <form onSubmit={submit}>
        <label for="new-password">Password</label>
        <input id="new-password" type="password" autocomplete="new-password" required minLength={MIN_PASSWORD} maxLength={MAX_PASSWORD}
          aria-describedby="new-password-rule" value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
        <p id="new-password-rule" class="muted">At least {MIN_PASSWORD} characters.</p>
        <label for="new-password-again">Password again</label>
        <input id="new-password-again" type="password" autocomplete="new-password" required minLength={MIN_PASSWORD} maxLength={MAX_PASSWORD}
          value={again} onInput={(e) => setAgain(e.currentTarget.value)} />
        <Problem text={problem} />
        <button type="submit" disabled={busy}>Choose password and sign in</button>
      </form>
    </main>
  );
}

import { useEffect, useState } from 'preact/hooks';
import { V2_SCOPES } from '@app/contracts/models/scopes';
import { api, Session } from '../api';
import { attempt, Problem, ShownOnce, Status, useConfirm, useInFlight, usePageTitle, when } from '../ui';

interface TokenItem {
  id: number;
  label: string;
  kind: string;
  scopes: string[];
  created: string;
}

const KINDS = [
  { kind: 'personal', label: 'Personal (version 2 API, the scopes below)' },
  { kind: 'admin', label: 'Admin (version 1 API, every method)' },
  { kind: 'notification', label: 'Notification (version 1 API, rooms/message and rooms/topic)' },
];

/** The "API access" page: the caller's tokens, made here and shown once. */
export function TokensPage({ session }: { session: Session }) {
  const [tokens, setTokens] = useState<TokenItem[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [label, setLabel] = useState('');
  const [kind, setKind] = useState('personal');
  const [scopes, setScopes] = useState<Set<string>>(new Set(['send_message', 'view_messages', 'view_room']));
  const [created, setCreated] = useState<{ label: string; token: string } | null>(null);
  const [creating, whileCreating] = useInFlight();
  const [revoking, whileRevoking] = useInFlight();
  const [dialog, confirm] = useConfirm();
  usePageTitle('API tokens');

  const load = () => api<{ items: TokenItem[] }>('GET', '/v2/token?max-results=1000').then((r) => setTokens(r.items), (err: Error) => setProblem(err.message));
  useEffect(() => void load(), []);

  const create = (e: Event) => {
    e.preventDefault();
    return whileCreating(() => attempt(setProblem, async () => {
      const made = await api<TokenItem & { token: string }>('POST', '/v2/token', {
        label: label.trim(), kind, ...(kind === 'personal' ? { scopes: [...scopes] } : {}),
      });
      setCreated({ label: made.label, token: made.token });
      setLabel('');
      await load();
    }));
  };
  const revoke = (t: TokenItem) => whileRevoking(async () => {
    if (!await confirm({ question: `Revoke token "${t.label}"?`, details: ['Whatever uses it is refused from now on; this cannot be undone.'] })) return;
    await attempt(setProblem, async () => {
      await api('DELETE', `/v2/token/${t.id}`);
      setStatus(`Token "${t.label}" revoked.`);
      await load();
    });
  });
  const toggle = (scope: string) => setScopes((s) => {
    const next = new Set(s);
    if (next.has(scope)) next.delete(scope);
    else next.add(scope);
    return next;
  });

  return (
    <>
      <h1 tabIndex={-1}>API tokens</h1>
      <p>A token lets a script or bot use the API as you. It is shown once, when it is made: keep it somewhere safe.</p>
      <form onSubmit={create} class="stack">
        <label for="token-label">Label</label>
        <input id="token-label" required maxLength={100} value={label} onInput={(e) => setLabel(e.currentTarget.value)} />
        {session.user.is_group_admin && (
          <>
            <label for="token-kind">Kind</label>
            <select id="token-kind" value={kind} onChange={(e) => setKind(e.currentTarget.value)}>
              {KINDS.map((k) => <option key={k.kind} value={k.kind}>{k.label}</option>)}
            </select>
          </>
        )}
        {kind === 'personal' && (
          <fieldset>
            <legend>Scopes</legend>
            {V2_SCOPES.filter((s) => s !== 'admin_group' || session.user.is_group_admin).map((s) => (
              <label key={s} class="check"><input type="checkbox" checked={scopes.has(s)} onChange={() => toggle(s)} />{s}</label>
            ))}
          </fieldset>
        )}
        <button type="submit" disabled={creating}>Create token</button>
      </form>
      {created && (
        <ShownOnce id="new-token" heading={`Token "${created.label}" made`} note="Copy it now: it will not be shown again."
          label="New token" value={created.token} what="token" setStatus={setStatus} />
      )}
      <Problem text={problem} />
      <Status text={status} />
      <h2>Your tokens</h2>
      {tokens === null ? <p aria-busy="true">Loading tokens…</p> : tokens.length === 0 ? <p>No tokens yet.</p> : (
        <div class="wide-table">
          <table class="list">
            <thead><tr><th scope="col">Label</th><th scope="col">Kind</th><th scope="col">Scopes</th><th scope="col">Created</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
            <tbody>
              {tokens.map((t) => (
                <tr key={t.id}>
                  <td id={`token-${t.id}`}>{t.label}</td>
                  <td>{t.kind}</td>
                  <td>{t.scopes.join(', ')}</td>
                  <td>{when(t.created)}</td>
                  <td><button type="button" aria-describedby={`token-${t.id}`} aria-disabled={revoking} onClick={() => revoke(t)}>Revoke</button></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {dialog}
    </>
  );
}

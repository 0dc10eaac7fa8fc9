import { useEffect, useRef, useState } from 'preact/hooks';
import { LIMITS } from '@app/contracts/models/limits';
import { allItems, api, Session } from '../api';
import { matches } from '../people-search';
import { attempt, Confirmation, Problem, ShownOnce, Status, useConfirm, useInFlight, usePageTitle, when } from '../ui';

/** A person as the list shows them (GET /v2/user?expand=items; the full record has the same names). */
interface Person {
  id: number;
  name: string;
  mention_name: string;
  email?: string;
  title?: string | null;
  timezone?: string | null;
  is_group_admin?: boolean;
  is_guest?: boolean;
}

/** GET /v2/user/{user}/holdings: what a deletion or a demotion would do, in sentences. */
interface Holdings { on_delete: string[]; on_demote: string[] }

interface Invitation { url: string; expires: string; name: string }

/** How a person was added: with a password, with an invitation link, or (the link refused) with none yet. */
type Added = { kind: 'password' } | { kind: 'invitation'; url: string; expires: string } | { kind: 'no-invitation'; problem: string };

/** The "People" page (group admins): find, add (by an invitation link or a password), promote, demote and delete people. */
export function PeoplePage({ session }: { session: Session }) {
  usePageTitle('People');
  const [people, setPeople] = useState<Person[] | null>(null);
  const [query, setQuery] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [invitation, setInvitation] = useState<Invitation | null>(null);
  const [busy, whileActing] = useInFlight();
  const [acting, setActing] = useState<number | null>(null);
  const [dialog, confirm] = useConfirm();
  const addButton = useRef<HTMLButtonElement>(null);

  const load = async () => {
    if (!session.user.is_group_admin) return;
    const listed = await allItems<Person>('/v2/user?expand=items&max-results=1000');
    setPeople(listed.sort((a, b) => a.name.localeCompare(b.name)));
  };
  useEffect(() => void load().catch((err: Error) => setProblem(err.message)), []);

  /**
   * One action at a time on the page: its row's buttons say so, and none acts twice. Said by
   * aria-disabled (the guard is useInFlight's), not `disabled`: a disabled button cannot take
   * back the focus a confirmation returns to it.
   */
  const act = (p: Person, work: () => Promise<unknown>) => whileActing(async () => {
    setActing(p.id);
    try {
      await attempt(setProblem, work);
    } finally {
      setActing(null);
    }
  });

  /** The confirmation of a deletion or demotion: what the service says it will do to this person. */
  const askAbout = async (p: Person, question: string, effects: (h: Holdings) => string[]): Promise<boolean> => {
    let details: string[];
    try {
      details = effects(await api<Holdings>('GET', `/v2/user/${p.id}/holdings`));
    } catch (err) {
      details = [`What ${p.name} holds could not be read (${(err as Error).message}); the change is judged again when it is made.`];
    }
    const c: Confirmation = { question, details };
    return confirm(c);
  };

  const setAdmin = (p: Person, admin: boolean) => act(p, async () => {
    if (!admin && !await askAbout(p, `Demote ${p.name}?`, (h) => h.on_demote)) return;
    // PUT replaces the whole user: the record as it is now, with the new standing (no password: kept).
    const u = await api<Person>('GET', `/v2/user/${p.id}`);
    await api('PUT', `/v2/user/${p.id}`, {
      name: u.name, email: u.email, mention_name: u.mention_name, title: u.title ?? undefined, timezone: u.timezone ?? undefined, is_group_admin: admin,
    });
    setStatus(admin ? `${p.name} is now a group admin.` : `${p.name} is no longer a group admin.`);
    await load();
  });

  const remove = (p: Person) => act(p, async () => {
    if (!await askAbout(p, `Delete ${p.name}?`, (h) => h.on_delete)) return;
    await api('DELETE', `/v2/user/${p.id}`);
    setStatus(`${p.name} was deleted.`);
    await load();
  });

  const invite = (p: Person) => act(p, async () => {
    const made = await api<{ url: string; expires: string }>('POST', `/v2/user/${p.id}/invitation`);
    setInvitation({ ...made, name: p.name });
  });

  const shown = people?.filter((p) => matches(p, query)) ?? [];
  // The list is everyone's to read (GET /v2/user), the changes group admins' only: said, rather than offered to fail.
  if (!session.user.is_group_admin) {
    return <><h1 tabIndex={-1}>People</h1><p role="alert">Only group admins manage people. Ask one of them to add, promote or remove someone.</p></>;
  }
  return (
    <>
      <h1 tabIndex={-1}>People</h1>
      <p>Everyone who can sign in. Group admins manage people, every room and the audit log.</p>
      <p>
        <button type="button" ref={addButton} aria-expanded={adding} aria-controls="add-person" onClick={() => setAdding(!adding)}>Add person</button>
      </p>
      {adding && (
        <AddPerson
          onCancel={() => { setAdding(false); addButton.current?.focus(); }}
          onAdded={async (p, how) => {
            setAdding(false);
            setInvitation(how.kind === 'invitation' ? { url: how.url, expires: how.expires, name: p.name } : null);
            if (how.kind === 'no-invitation') setProblem(`${p.name} was added, but no invitation link was made (${how.problem}): try "New invitation link" in the list.`);
            setStatus(how.kind === 'invitation' ? `${p.name} was added: send them the invitation link.` : `${p.name} was added${how.kind === 'password' ? ' with the password you chose' : ''}.`);
            await load().catch((err: Error) => setProblem(err.message));
            if (how.kind !== 'invitation') addButton.current?.focus();
          }} />
      )}
      {invitation && (
        <ShownOnce id="invitation-link" heading={`Invitation link for ${invitation.name}`}
          note={`Send it to ${invitation.name} yourself: no e-mail is sent. It works once, until ${when(invitation.expires)}, and will not be shown again.`}
          label="Invitation link" value={invitation.url} what="invitation link" setStatus={setStatus} />
      )}
      <Problem text={problem} />
      <Status text={status} />
      <div class="people-search">
        <label for="people-search">Search people</label>
        <input id="people-search" type="search" autocomplete="off" placeholder="Name, @mention or e-mail" aria-describedby="people-count"
          value={query} onInput={(e) => setQuery(e.currentTarget.value)} />
        <span id="people-count" class="muted" role="status">{people === null ? '' : query.trim() ? `${shown.length} of ${people.length} people` : `${people.length} people`}</span>
      </div>
      {people === null ? (problem ? null : <p aria-busy="true">Loading people…</p>) : shown.length === 0 ? <p>{people.length === 0 ? 'Nobody yet.' : 'Nobody matches the search.'}</p> : (
        <div class="table-scroll">
          <table class="list people">
            <caption class="visually-hidden">People</caption>
            <thead><tr><th scope="col">Name</th><th scope="col">Mention name</th><th scope="col">E-mail</th><th scope="col">Role</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
            <tbody>
              {shown.map((p) => {
                const me = p.id === session.user.id;
                return (
                  <tr key={p.id} aria-busy={acting === p.id ? 'true' : undefined}>
                    <th scope="row" id={`person-${p.id}`}>{p.name}{me && <span class="muted"> (you)</span>}</th>
                    <td>@{p.mention_name}</td>
                    <td>{p.email ?? ''}</td>
                    <td>{p.is_guest ? 'Guest' : p.is_group_admin ? 'Group admin' : 'Member'}</td>
                    <td class="actions">
                      {!me && !p.is_guest && (
                        <div class="row-actions">
                          {p.is_group_admin
                            ? <button type="button" class="secondary" aria-describedby={`person-${p.id}`} aria-disabled={busy ? 'true' : undefined} onClick={() => setAdmin(p, false)}>Demote</button>
                            : <button type="button" class="secondary" aria-describedby={`person-${p.id}`} aria-disabled={busy ? 'true' : undefined} onClick={() => setAdmin(p, true)}>Promote</button>}
                          <button type="button" class="secondary" aria-describedby={`person-${p.id}`} aria-disabled={busy ? 'true' : undefined} onClick={() => invite(p)}>New invitation link</button>
                          <button type="button" class="danger" aria-describedby={`person-${p.id}`} aria-disabled={busy ? 'true' : undefined} onClick={() => remove(p)}>Delete</button>
                        </div>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {dialog}
    </>
  );
}

/** The "Add person" form: a name, a mention name, an e-mail address, and either a password or an invitation link. */
function AddPerson({ onAdded, onCancel }: {
  onAdded: (p: Person, how: Added) => Promise<void>;
  onCancel: () => void;
}) {
  const [name, setName] = useState('');
  const [mention, setMention] = useState('');
  const [email, setEmail] = useState('');
  const [how, setHow] = useState<'invite' | 'password'>('invite');
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, whileAdding] = useInFlight();
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);

  const submit = (e: Event) => {
    e.preventDefault();
    return whileAdding(() => attempt(setProblem, async () => {
      const created = await api<{ id: number; entity: Person }>('POST', '/v2/user', {
        name: name.trim(), email: email.trim(), mention_name: mention.trim().replace(/^@/, '') || undefined,
        ...(how === 'password' ? { password } : {}),
      });
      // Made without a password (one is generated, known to nobody): the link is how they choose theirs.
      if (how === 'password') return onAdded(created.entity, { kind: 'password' });
      try {
        const made = await api<{ url: string; expires: string }>('POST', `/v2/user/${created.id}/invitation`);
        await onAdded(created.entity, { kind: 'invitation', ...made });
      } catch (err) {
        await onAdded(created.entity, { kind: 'no-invitation', problem: (err as Error).message });
      }
    }));
  };

  return (
    <form id="add-person" class="stack add-person" onSubmit={submit} aria-labelledby="add-person-heading">
      <h2 id="add-person-heading">Add person</h2>
      <label for="person-name">Name</label>
      <input id="person-name" ref={first} required maxLength={LIMITS.userNameMaxLength} autocomplete="off" value={name} onInput={(e) => setName(e.currentTarget.value)} />
      <label for="person-mention">Mention name</label>
      <input id="person-mention" maxLength={LIMITS.mentionNameMaxLength} autocomplete="off" aria-describedby="person-mention-note" value={mention} onInput={(e) => setMention(e.currentTarget.value)} />
      <p id="person-mention-note" class="muted">How others @mention them, without spaces. Left empty, it is made from the name.</p>
      <label for="person-email">E-mail</label>
      <input id="person-email" type="email" required maxLength={LIMITS.emailMaxLength} autocomplete="off" value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
      <fieldset>
        <legend>How they sign in</legend>
        <label class="check"><input type="radio" name="person-how" checked={how === 'invite'} onChange={() => setHow('invite')} />Send an invitation link</label>
        <label class="check"><input type="radio" name="person-how" checked={how === 'password'} onChange={() => setHow('password')} />Set a password</label>
      </fieldset>
      {how === 'password' && (
        <>
          <label for="person-password">Password</label>
          <input id="person-password" type="password" required autocomplete="new-password" minLength={LIMITS.passwordMinLength} maxLength={LIMITS.passwordMaxLength}
            aria-describedby="person-password-note" value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
          <p id="person-password-note" class="muted">At least {LIMITS.passwordMinLength} characters. Tell it to them yourself.</p>
        </>
      )}
      <Problem text={problem} />
      <div class="form-actions">
        <button type="submit" disabled={busy}>{how === 'invite' ? 'Add and make invitation link' : 'Add with this password'}</button>
        <button type="button" class="secondary" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  );
}

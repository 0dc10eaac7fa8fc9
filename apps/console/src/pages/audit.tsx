import { useEffect, useState } from 'preact/hooks';
import { allItems, api } from '../api';
import { AUDIT_ACTION_GROUPS, AuditFilter, auditPath, filterOf, isFiltered, NO_FILTER, roomChoices } from '../audit-filter';
import { Problem, usePageTitle, when } from '../ui';

interface Subject { type: string; id: number | null; name: string }

interface AuditItem {
  id: number;
  date: string;
  actor: Subject;
  action: string;
  target: Subject;
  details: Record<string, unknown>;
  address: string | null;
}

interface AuditPage { items: AuditItem[]; startIndex: number; maxResults: number; links: { next?: string; prev?: string } }

interface Named { id: number; name: string }

const PAGE = 50;

/** Who or what, as a reader names them: "Ada (user 3)", "cli". */
const named = (s: Subject) => (s.name && s.name !== s.type ? `${s.name} (${s.type}${s.id !== null ? ` ${s.id}` : ''})` : `${s.type}${s.id !== null ? ` ${s.id}` : ''}`);

/** The details as `key: value` pairs, nested values as JSON. */
const detailsOf = (d: Record<string, unknown>) =>
  Object.entries(d).map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`).join('; ');

const byName = (a: Named, b: Named) => a.name.localeCompare(b.name);

/**
 * The filter the page shows: kept in its history entry (not the address, whose fragment is the
 * route), so that a reload or Back returns to the same lines.
 */
const keptFilter = () => filterOf((history.state as { auditFilter?: unknown } | null)?.auditFilter);
const keepFilter = (f: AuditFilter) => history.replaceState({ ...(history.state as object | null), auditFilter: f }, '');

/** The "Audit log" page (group admins): who changed access, newest first, a page at a time, filtered by actor, action, room and dates. */
export function AuditPage() {
  usePageTitle('Audit log');
  const [filter, setFilter] = useState<AuditFilter>(keptFilter);
  const [draft, setDraft] = useState<AuditFilter>(filter);
  const [page, setPage] = useState<AuditPage | null>(null);
  const [start, setStart] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);
  const [people, setPeople] = useState<Named[]>([]);
  const [rooms, setRooms] = useState<Named[]>([]);

  useEffect(() => {
    // The pickers' choices; the log reads without them (a filter is then typed in by nobody).
    allItems<Named>('/v2/user?include-deleted=true&max-results=1000').then((u) => setPeople(u.sort(byName)), () => undefined);
    // Deleted rooms too, as the log names them: their lines stay in it.
    Promise.all([
      allItems<Named>('/v2/room?include-archived=true&include-private=true&max-results=1000'),
      allItems<AuditItem>('/v2/audit?action=room.deleted&max-results=1000').catch(() => []),
    ]).then(([r, deleted]) => setRooms(roomChoices(r, deleted)), () => undefined);
  }, []);

  useEffect(() => {
    let current = true;
    setPage(null);
    setProblem(null);
    api<AuditPage>('GET', auditPath(filter, start, PAGE)).then((p) => current && setPage(p), (err: Error) => current && setProblem(err.message));
    return () => { current = false; };
  }, [filter, start]);

  const show = (f: AuditFilter) => {
    keepFilter(f);
    setDraft(f);
    setFilter(f);
    setStart(0);
  };
  const apply = (e: Event) => {
    e.preventDefault();
    show(draft);
  };
  const set = (k: keyof AuditFilter) => (e: Event) => setDraft({ ...draft, [k]: (e.currentTarget as HTMLInputElement | HTMLSelectElement).value });

  return (
    <>
      <h1 tabIndex={-1}>Audit log</h1>
      <p>Who changed access: people and their standing, members, owners and privacy of rooms, tokens, webhooks, bridges and add-ons, throttled sign-ins. Newest first.</p>
      <form class="audit-filter" onSubmit={apply} aria-label="Filter the audit log">
        <div>
          <label for="audit-actor">Who</label>
          <select id="audit-actor" value={draft.actor} onChange={set('actor')}>
            <option value="">Anyone</option>
            {people.map((p) => <option key={p.id} value={String(p.id)}>{p.name}</option>)}
          </select>
        </div>
        <div>
          <label for="audit-action">Action</label>
          <select id="audit-action" value={draft.action} onChange={set('action')}>
            <option value="">Any action</option>
            {AUDIT_ACTION_GROUPS.map((g) => (
              <optgroup key={g.label} label={g.label}>{g.actions.map((a) => <option key={a} value={a}>{a}</option>)}</optgroup>
            ))}
          </select>
        </div>
        <div>
          <label for="audit-room">Room</label>
          <select id="audit-room" value={draft.room} onChange={set('room')}>
            <option value="">Any room</option>
            {rooms.map((r) => <option key={r.id} value={String(r.id)}>{r.name}</option>)}
          </select>
        </div>
        <div>
          <label for="audit-since">From</label>
          <input id="audit-since" type="date" value={draft.since} max={draft.until || undefined} onInput={set('since')} />
        </div>
        <div>
          <label for="audit-until">To</label>
          <input id="audit-until" type="date" value={draft.until} min={draft.since || undefined} onInput={set('until')} />
        </div>
        <div class="audit-filter-actions">
          <button type="submit">Apply filters</button>
          <button type="button" class="secondary" disabled={!isFiltered(filter) && !isFiltered(draft)} onClick={() => show(NO_FILTER)}>Clear filters</button>
        </div>
      </form>
      <Problem text={problem} />
      {page === null ? (problem ? null : <p aria-busy="true">Loading the audit log…</p>)
        : page.items.length === 0 ? <p role="status">{isFiltered(filter) ? 'No line matches these filters' : 'Nothing recorded'}{start > 0 ? ' on this page' : ''}.</p> : (
          <div class="table-scroll">
            <table class="list audit">
              <caption class="visually-hidden">Audit log, lines {start + 1} to {start + page.items.length}{isFiltered(filter) ? ' (filtered)' : ''}</caption>
              <thead>
                <tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">Action</th><th scope="col">Target</th><th scope="col">Details</th><th scope="col">Address</th></tr>
              </thead>
              <tbody>
                {page.items.map((i) => (
                  <tr key={i.id}>
                    <td><time dateTime={i.date}>{when(i.date)}</time></td>
                    <td>{named(i.actor)}</td>
                    <td><code>{i.action}</code></td>
                    <td>{named(i.target)}</td>
                    <td class="details">{detailsOf(i.details)}</td>
                    <td>{i.address ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      <nav aria-label="Audit log pages" class="pager">
        <button type="button" disabled={start === 0} onClick={() => setStart(Math.max(0, start - PAGE))}>Newer</button>
        <button type="button" disabled={!page?.links.next} onClick={() => setStart(start + PAGE)}>Older</button>
      </nav>
    </>
  );
}

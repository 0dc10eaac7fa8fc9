import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { Problem, when } from '../ui';

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

const PAGE = 50;

/** Who or what, as a reader names them: "Ada (user 3)", "cli". */
const named = (s: Subject) => (s.name && s.name !== s.type ? `${s.name} (${s.type}${s.id !== null ? ` ${s.id}` : ''})` : `${s.type}${s.id !== null ? ` ${s.id}` : ''}`);

/** The details as `key: value` pairs, nested values as JSON. */
const detailsOf = (d: Record<string, unknown>) =>
  Object.entries(d).map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`).join('; ');

/** The "Audit log" page (group admins): who changed access, newest first, a page at a time. */
export function AuditPage() {
  const [page, setPage] = useState<AuditPage | null>(null);
  const [start, setStart] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    setPage(null);
    api<AuditPage>('GET', `/v2/audit?start-index=${start}&max-results=${PAGE}`).then(setPage, (err: Error) => setProblem(err.message));
  }, [start]);

  return (
    <>
      <h1 tabIndex={-1}>Audit log</h1>
      <p>Who changed access: members, owners and privacy of rooms, users' standing, tokens, webhooks and add-ons, throttled sign-ins. Newest first.</p>
      <Problem text={problem} />
      {page === null ? (problem ? null : <p aria-busy="true">Loading the audit log…</p>) : page.items.length === 0 ? <p>Nothing recorded{start > 0 ? ' on this page' : ' yet'}.</p> : (
        <table class="list">
          <caption class="visually-hidden">Audit log, lines {start + 1} to {start + page.items.length}</caption>
          <thead>
            <tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">Action</th><th scope="col">Target</th><th scope="col">Details</th><th scope="col">Address</th></tr>
          </thead>
          <tbody>
            {page.items.map((i) => (
              <tr key={i.id}>
                <td><time dateTime={i.date}>{when(i.date)}</time></td>
                <td>{named(i.actor)}</td>
                <td>{i.action}</td>
                <td>{named(i.target)}</td>
                <td>{detailsOf(i.details)}</td>
                <td>{i.address ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav aria-label="Audit log pages" class="pager">
        <button type="button" disabled={start === 0} onClick={() => setStart(Math.max(0, start - PAGE))}>Newer</button>
        <button type="button" disabled={!page?.links.next} onClick={() => setStart(start + PAGE)}>Older</button>
      </nav>
    </>
  );
}

import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api';
import { hrefOf } from '../routes';
import { attempt, Problem, Status, when } from '../ui';
import { BridgeItem, bridgeTitle, healthOf } from './bridges';
import { Health, WebhookItem } from './integrations';

interface Attempt {
  at: string;
  status_code?: number | null;
  duration_ms: number;
  error?: string | null;
}

interface DeliveryItem {
  id: string;
  event: string;
  status: 'pending' | 'retrying' | 'delivered' | 'failed';
  created: string;
  attempts: number;
  next_attempt_at?: string;
  last_attempt?: Attempt;
}

interface DeliveryDetail extends Omit<DeliveryItem, 'attempts'> {
  request: { url: string | null; headers: Record<string, string> | null; body: string };
  attempts: Array<Attempt & { attempt: number; response_headers: Record<string, string> | null; response_body: string | null }>;
  reply: { message_id: string | null; error: string | null } | null;
}

const STATUSES = ['', 'pending', 'retrying', 'delivered', 'failed'];

/** A redelivery is made by the dispatcher after the 202: its row is read again this often, for this long. */
const FOLLOW_EVERY_MS = 500;
const FOLLOW_FOR_MS = 10_000;
const UNSETTLED = new Set(['pending', 'retrying']);

/** A delivery's row from its detail (which lists its attempts where the row counts them). */
function rowOf(d: DeliveryDetail): DeliveryItem {
  const last = d.attempts[d.attempts.length - 1];
  return {
    id: d.id, event: d.event, status: d.status, created: d.created, attempts: d.attempts.length,
    ...(d.next_attempt_at ? { next_attempt_at: d.next_attempt_at } : {}),
    ...(last ? { last_attempt: { at: last.at, status_code: last.status_code, duration_ms: last.duration_ms, error: last.error } } : {}),
  };
}

/** Whose log it is: a webhook's, or a bridge's (the same log under the bridge's own URL). */
export interface DeliveriesOwner { kind: 'webhook' | 'bridge'; id: number }

/** What the page shows of the owner: its title, its URL (masked as the API answers it), what it is sent, its health. */
interface OwnerSummary { title: string; line: string; health: WebhookItem }

const summaryOf = (owner: DeliveriesOwner, read: unknown): OwnerSummary => {
  if (owner.kind === 'bridge') {
    const b = read as BridgeItem;
    return { title: bridgeTitle(b), line: `${b.url} (${b.events.join(', ')})`, health: healthOf(b) };
  }
  const w = read as WebhookItem;
  return { title: w.name || `webhook ${w.id}`, line: `${w.url} (${w.event})`, health: w };
};

/** One webhook's or bridge's delivery log: filter, look into a delivery, redeliver, recover, enable. */
export function DeliveriesPage({ roomId, owner }: { roomId: number; owner: DeliveriesOwner }) {
  const self = `/v2/room/${roomId}/${owner.kind}/${owner.id}`;
  const webhookId = owner.id;
  const [hook, setHook] = useState<OwnerSummary | null>(null);
  const [items, setItems] = useState<DeliveryItem[] | null>(null);
  const [filter, setFilter] = useState('');
  const [open, setOpen] = useState<DeliveryDetail | null>(null);
  const [since, setSince] = useState(() => new Date(Date.now() - 24 * 3600_000).toISOString().slice(0, 16));
  const [problem, setProblem] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  // Deliveries being redelivered and followed: the ref guards (a second click can come before
  // the render), the state disables their buttons.
  const followed = useRef(new Set<string>());
  const [following, setFollowing] = useState<ReadonlySet<string>>(new Set());
  const shown = useRef(true);
  useEffect(() => () => { shown.current = false; }, []);

  const loadHook = () => api<unknown>('GET', self).then((read) => setHook(summaryOf(owner, read)), (err: Error) => setProblem(err.message));
  const load = () => api<{ items: DeliveryItem[] }>('GET', `${self}/delivery?max-results=100${filter ? `&status=${filter}` : ''}`)
    .then((r) => setItems(r.items), (err: Error) => setProblem(err.message));
  useEffect(() => void loadHook(), [webhookId]);
  useEffect(() => void load(), [webhookId, filter]);

  const act = (what: () => Promise<unknown>, done: string) => attempt(setProblem, async () => {
    await what();
    if (done) setStatus(done);
    await Promise.all([load(), loadHook()]);
  });
  /**
   * After a redelivery's 202 the dispatcher makes the attempt: the row (and the webhook's
   * health) is read again until the new attempt is recorded with an outcome, or for
   * FOLLOW_FOR_MS, so the page shows what happened without a reload.
   */
  const follow = async (before: DeliveryItem) => {
    for (let waited = 0; waited < FOLLOW_FOR_MS && shown.current; waited += FOLLOW_EVERY_MS) {
      await new Promise((r) => setTimeout(r, FOLLOW_EVERY_MS));
      const now = rowOf(await api<DeliveryDetail>('GET', `${self}/delivery/${before.id}`));
      setItems((list) => list && list.map((d) => (d.id === now.id ? now : d)));
      if (now.attempts !== before.attempts && !UNSETTLED.has(now.status)) break;
    }
    await loadHook();
  };
  // Its button waits until then: a second click would queue another attempt.
  const redeliver = async (d: DeliveryItem) => {
    if (followed.current.has(d.id)) return;
    followed.current.add(d.id);
    setFollowing(new Set(followed.current));
    await act(async () => {
      await api('POST', `${self}/delivery/${d.id}/redeliver`);
      setStatus(`Delivery ${d.id} sent again.`);
      await follow(d);
    }, '');
    followed.current.delete(d.id);
    setFollowing(new Set(followed.current));
  };
  const recover = (e: Event) => {
    e.preventDefault();
    return act(async () => {
      const r = await api<{ count: number }>('POST', `${self}/recover`, { since: new Date(since).toISOString() });
      setStatus(`${r.count} failed deliveries queued again.`);
    }, '');
  };
  const details = async (d: DeliveryItem) => {
    try {
      setOpen(await api<DeliveryDetail>('GET', `${self}/delivery/${d.id}`));
    } catch (err) {
      setProblem((err as Error).message);
    }
  };

  return (
    <>
      <h1 tabIndex={-1}>Deliveries of {hook ? hook.title : `${owner.kind} ${webhookId}`}</h1>
      <p><a href={hrefOf({ page: 'integrations', roomId })}>Back to the integrations</a></p>
      {hook && (
        <p>{hook.line}: <Health w={hook.health} />{' '}
          {!hook.health.enabled && (
            <button type="button" onClick={() => act(() => api('POST', `${self}/enable`), `${owner.kind === 'bridge' ? 'Bridge' : 'Webhook'} enabled.`)}>Enable</button>
          )}
        </p>
      )}
      <form class="inline" onSubmit={recover}>
        <label for="recover-since">Failed since</label>
        <input id="recover-since" type="datetime-local" required value={since} onInput={(e) => setSince(e.currentTarget.value)} />
        <button type="submit">Recover failed since</button>
      </form>
      <Problem text={problem} />
      <Status text={status} />
      <label for="status-filter">Status</label>{' '}
      <select id="status-filter" value={filter} onChange={(e) => setFilter(e.currentTarget.value)}>
        {STATUSES.map((s) => <option key={s} value={s}>{s || 'any'}</option>)}
      </select>
      {items === null ? <p aria-busy="true">Loading deliveries…</p> : items.length === 0 ? <p>No deliveries{filter ? ` ${filter}` : ''}.</p> : (
        <table class="list">
          <thead><tr><th scope="col">Delivery</th><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Last attempt</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
          <tbody>
            {items.map((d) => (
              <tr key={d.id}>
                <td id={`delivery-${d.id}`}><button type="button" class="link" onClick={() => details(d)}>{d.id}</button><div class="muted">{when(d.created)}</div></td>
                <td>{d.event}</td>
                <td class={`delivery-${d.status}`}>{d.status}{d.next_attempt_at ? <div class="muted">next {when(d.next_attempt_at)}</div> : null}</td>
                <td>{d.attempts}</td>
                <td>{d.last_attempt ? `${d.last_attempt.status_code ?? d.last_attempt.error ?? ''} in ${d.last_attempt.duration_ms} ms` : ''}</td>
                <td><button type="button" aria-describedby={`delivery-${d.id}`} disabled={following.has(d.id)} onClick={() => redeliver(d)}>Redeliver</button></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {open && <Detail d={open} onClose={() => setOpen(null)} />}
    </>
  );
}

function Detail({ d, onClose }: { d: DeliveryDetail; onClose: () => void }) {
  return (
    <section class="detail" aria-labelledby="detail-heading">
      <h2 id="detail-heading" tabIndex={-1} ref={(h) => h?.focus()}>Delivery {d.id}</h2>
      <button type="button" onClick={onClose}>Close</button>
      <h3>Request</h3>
      <p>POST {d.request.url}</p>
      <pre>{Object.entries(d.request.headers ?? {}).map(([k, v]) => `${k}: ${v}`).join('\n')}</pre>
      <pre>{d.request.body}</pre>
      <h3>Attempts</h3>
      <ol>
        {d.attempts.map((a) => (
          <li key={a.attempt}>
            <p>{when(a.at)}: {a.status_code ?? 'no answer'} in {a.duration_ms} ms{a.error ? ` (${a.error})` : ''}</p>
            {a.response_headers && <pre>{Object.entries(a.response_headers).map(([k, v]) => `${k}: ${v}`).join('\n')}</pre>}
            {a.response_body && <pre>{a.response_body}</pre>}
          </li>
        ))}
      </ol>
      {d.reply && <p>Reply: {d.reply.message_id ? `posted to the room as ${d.reply.message_id}` : d.reply.error}</p>}
    </section>
  );
}

import { useEffect, useRef, useState } from 'preact/hooks';
import { allItems, api } from '../api';
import { DeliveryCharts } from '../charts';
import { shortTime } from '../deliveries-text';
import { hrefOf } from '../routes';
import { attempt, Problem, Status, useConfirm, useInFlight, usePageTitle, when } from '../ui';
import { BridgeItem, bridgeTitle, healthOf } from './bridges';
import { Health, WebhookItem } from './integrations';

export interface Attempt {
  at: string;
  status_code?: number | null;
  duration_ms: number;
  error?: string | null;
}

export interface DeliveryItem {
  id: string;
  event: string;
  status: 'pending' | 'retrying' | 'delivered' | 'failed';
  created: string;
  attempts: number;
  next_attempt_at?: string;
  last_attempt?: Attempt;
}

export interface DeliveryDetail extends Omit<DeliveryItem, 'attempts'> {
  request: { url: string | null; headers: Record<string, string> | null; body: string };
  attempts: Array<Attempt & { attempt: number; response_headers: Record<string, string> | null; response_body: string | null }>;
  reply: { message_id: string | null; error: string | null } | null;
}

const STATUSES = ['', 'pending', 'retrying', 'delivered', 'failed'];

/** A redelivery is made by the dispatcher after the 202: its row is read again this often, for this long. */
const FOLLOW_EVERY_MS = 500;
const FOLLOW_FOR_MS = 10_000;
const UNSETTLED = new Set(['pending', 'retrying']);

/**
 * After a redelivery's 202 the dispatcher makes the attempt: the delivery is read again until
 * the new attempt is recorded with an outcome, or for FOLLOW_FOR_MS (or until `shown` says the
 * page is gone), each reading given to `seen`, so the page shows what happened without a reload.
 */
export async function followRedelivery(self: string, before: { id: string; attempts: number }, seen: (d: DeliveryDetail) => void, shown: () => boolean): Promise<void> {
  for (let waited = 0; waited < FOLLOW_FOR_MS && shown(); waited += FOLLOW_EVERY_MS) {
    await new Promise((r) => setTimeout(r, FOLLOW_EVERY_MS));
    const now = await api<DeliveryDetail>('GET', `${self}/delivery/${before.id}`);
    seen(now);
    if (now.attempts.length !== before.attempts && !UNSETTLED.has(now.status)) break;
  }
}

/** The most failed deliveries counted before asking to recover them (pages of the list are read to count). */
const COUNT_AT_MOST = 10_000;

/** A delivery's row from its detail (which lists its attempts where the row counts them). */
export function rowOf(d: DeliveryDetail): DeliveryItem {
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
export interface OwnerSummary { title: string; line: string; health: WebhookItem }

export const summaryOf = (owner: DeliveriesOwner, read: unknown): OwnerSummary => {
  if (owner.kind === 'bridge') {
    const b = read as BridgeItem;
    return { title: bridgeTitle(b), line: `${b.url} (${b.events.join(', ')})`, health: healthOf(b) };
  }
  const w = read as WebhookItem;
  return { title: w.name || `webhook ${w.id}`, line: `${w.url} (${w.event})`, health: w };
};

/** One webhook's or bridge's delivery log: its charts, filter, each delivery a link away, redeliver, recover, enable. */
export function DeliveriesPage({ roomId, owner }: { roomId: number; owner: DeliveriesOwner }) {
  const self = `/v2/room/${roomId}/${owner.kind}/${owner.id}`;
  const webhookId = owner.id;
  const [hook, setHook] = useState<OwnerSummary | null>(null);
  const [items, setItems] = useState<DeliveryItem[] | null>(null);
  const [filter, setFilter] = useState('');
  const [since, setSince] = useState(() => localInput(new Date(Date.now() - 24 * 3600_000)));
  const [problem, setProblem] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  // Read again after a change, so the charts count what was just done.
  const [changes, setChanges] = useState(0);
  // Deliveries being redelivered and followed: the ref guards (a second click can come before
  // the render), the state disables their buttons.
  const followed = useRef(new Set<string>());
  const [following, setFollowing] = useState<ReadonlySet<string>>(new Set());
  const [recovering, whileRecovering] = useInFlight();
  const [enabling, whileEnabling] = useInFlight();
  const [dialog, confirm] = useConfirm();
  const shown = useRef(true);
  useEffect(() => () => { shown.current = false; }, []);
  const what = owner.kind === 'bridge' ? 'bridge' : 'webhook';
  usePageTitle(`Deliveries of ${hook ? hook.title : `${what} ${webhookId}`}`);

  const loadHook = () => api<unknown>('GET', self).then((read) => setHook(summaryOf(owner, read)), (err: Error) => setProblem(err.message));
  // Only the latest reading is shown: one for a filter chosen before may answer after it.
  const reading = useRef(0);
  const load = () => {
    const mine = ++reading.current;
    return api<{ items: DeliveryItem[] }>('GET', `${self}/delivery?max-results=100${filter ? `&status=${filter}` : ''}`)
      .then((r) => { if (mine === reading.current) setItems(r.items); }, (err: Error) => setProblem(err.message));
  };
  useEffect(() => void loadHook(), [webhookId]);
  useEffect(() => void load(), [webhookId, filter]);

  const act = (work: () => Promise<unknown>) => attempt(setProblem, async () => {
    await work();
    setChanges((n) => n + 1);
    await Promise.all([load(), loadHook()]);
  });
  // Its button waits until the new attempt's outcome: a second click would queue another attempt.
  const redeliver = async (d: DeliveryItem) => {
    if (followed.current.has(d.id)) return;
    followed.current.add(d.id);
    setFollowing(new Set(followed.current));
    await act(async () => {
      await api('POST', `${self}/delivery/${d.id}/redeliver`);
      setStatus(`Delivery ${d.id} sent again.`);
      await followRedelivery(self, d, (now) => setItems((list) => list && list.map((x) => (x.id === now.id ? rowOf(now) : x))), () => shown.current);
    });
    followed.current.delete(d.id);
    setFollowing(new Set(followed.current));
  };
  /** Counted first (the list filtered as recover selects: failed, created since), so the question names how many. */
  const recover = (e: Event) => {
    e.preventDefault();
    return whileRecovering(() => attempt(setProblem, async () => {
      const from = new Date(since);
      const failed = await allItems<DeliveryItem>(`${self}/delivery?status=failed&since=${encodeURIComponent(from.toISOString())}&max-results=1000`, COUNT_AT_MOST);
      const n = failed.length;
      if (n === 0) {
        setStatus(`No failed deliveries since ${shortTime(from)}: nothing to recover.`);
        return;
      }
      const count = n >= COUNT_AT_MOST ? `${COUNT_AT_MOST} or more` : String(n);
      const yes = await confirm({
        question: `Recover ${count} failed ${n === 1 ? 'delivery' : 'deliveries'} since ${shortTime(from)}?`,
        details: [`Each is sent again to the ${what}'s URL now, and retried as a new delivery would be.`],
      });
      if (!yes) return;
      await act(async () => {
        const r = await api<{ count: number }>('POST', `${self}/recover`, { since: from.toISOString() });
        setStatus(`${r.count} failed ${r.count === 1 ? 'delivery' : 'deliveries'} queued again.`);
      });
    }));
  };
  const enable = () => whileEnabling(async () => {
    const title = hook ? hook.title : `${what} ${webhookId}`;
    if (!await confirm({ question: `Enable ${title} again?`, details: [`Its deliveries are sent from now on, to ${hook?.line ?? 'its URL'}.`] })) return;
    await act(async () => {
      await api('POST', `${self}/enable`);
      setStatus(`${owner.kind === 'bridge' ? 'Bridge' : 'Webhook'} enabled.`);
    });
  });

  return (
    <>
      <h1 tabIndex={-1}>Deliveries of {hook ? hook.title : `${what} ${webhookId}`}</h1>
      <p><a href={hrefOf({ page: 'integrations', roomId })}>Back to the integrations</a></p>
      {hook && (
        <p><span class="url">{hook.line}</span>: <Health w={hook.health} />{' '}
          {!hook.health.enabled && <button type="button" aria-disabled={enabling} onClick={enable}>Enable</button>}
        </p>
      )}
      <DeliveryCharts self={self} refresh={changes} />
      <h2>Log</h2>
      <form class="inline" onSubmit={recover}>
        <label for="recover-since">Failed since</label>
        <input id="recover-since" type="datetime-local" required value={since} onInput={(e) => setSince(e.currentTarget.value)} />
        <button type="submit" aria-disabled={recovering}>Recover failed since</button>
      </form>
      <Problem text={problem} />
      <Status text={status} />
      <label for="status-filter">Status</label>{' '}
      <select id="status-filter" value={filter} onChange={(e) => setFilter(e.currentTarget.value)}>
        {STATUSES.map((s) => <option key={s} value={s}>{s || 'any'}</option>)}
      </select>
      {items === null ? <p aria-busy="true">Loading deliveries…</p> : items.length === 0 ? <p>No deliveries{filter ? ` ${filter}` : ''}.</p> : (
        <div class="wide-table">
          <table class="list">
            <thead><tr><th scope="col">Delivery</th><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Last attempt</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
            <tbody>
              {items.map((d) => (
                <tr key={d.id}>
                  <td id={`delivery-${d.id}`}>
                    <a class="delivery-id" href={hrefOf(owner.kind === 'bridge'
                      ? { page: 'bridge-delivery', roomId, bridgeId: owner.id, deliveryId: d.id }
                      : { page: 'delivery', roomId, webhookId: owner.id, deliveryId: d.id })}>{d.id}</a>
                    <div class="muted">{when(d.created)}</div>
                  </td>
                  <td>{d.event}</td>
                  <td class={`delivery-${d.status}`}>{d.status}{d.next_attempt_at ? <div class="muted">next {when(d.next_attempt_at)}</div> : null}</td>
                  <td>{d.attempts}</td>
                  <td>{d.last_attempt ? `${d.last_attempt.status_code ?? d.last_attempt.error ?? ''} in ${d.last_attempt.duration_ms} ms` : ''}</td>
                  <td><button type="button" aria-describedby={`delivery-${d.id}`} disabled={following.has(d.id)} onClick={() => redeliver(d)}>Redeliver</button></td>
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

/** A date as a datetime-local field holds it: the reader's local time, to the minute. */
function localInput(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

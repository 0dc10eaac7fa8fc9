import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api';
import { hrefOf } from '../routes';
import { attempt, Problem, Status, useInFlight, usePageTitle, when } from '../ui';
import { maskedQuery, prettyBody, shownHeader } from '../deliveries-text';
import { DeliveriesOwner, DeliveryDetail, followRedelivery, OwnerSummary, summaryOf } from './deliveries';

const statusText = (code: number | null | undefined) => (code === null || code === undefined ? 'no answer' : `HTTP ${code}`);

function Headers({ headers, label, shorten }: { headers: Record<string, string> | null; label: string; shorten: boolean }) {
  const entries = Object.entries(headers ?? {});
  if (entries.length === 0) return <p class="muted">No headers recorded.</p>;
  return (
    <table class="list compact headers">
      <caption class="visually-hidden">{label}</caption>
      <thead><tr><th scope="col">Header</th><th scope="col">Value</th></tr></thead>
      <tbody>
        {entries.map(([k, v]) => <tr key={k}><th scope="row" class="url">{k}</th><td class="url">{shorten ? shownHeader(k, v) : v}</td></tr>)}
      </tbody>
    </table>
  );
}

/**
 * A delivery's own page: the request as sent (the URL's query masked, signatures shortened, the
 * body indented), every attempt with what came back, the reply it produced, and Redeliver.
 */
export function DeliveryPage({ roomId, owner, deliveryId }: { roomId: number; owner: DeliveriesOwner; deliveryId: string }) {
  const self = `/v2/room/${roomId}/${owner.kind}/${owner.id}`;
  const [hook, setHook] = useState<OwnerSummary | null>(null);
  const [d, setD] = useState<DeliveryDetail | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [redelivering, whileRedelivering] = useInFlight();
  const shown = useRef(true);
  useEffect(() => () => { shown.current = false; }, []);
  usePageTitle(`Delivery ${deliveryId}`);

  useEffect(() => {
    api<unknown>('GET', self).then((read) => setHook(summaryOf(owner, read)), (err: Error) => setProblem(err.message));
    api<DeliveryDetail>('GET', `${self}/delivery/${deliveryId}`).then(setD, (err: Error) => setProblem(err.message));
  }, [self, deliveryId]);

  const back = owner.kind === 'bridge' ? hrefOf({ page: 'bridge-deliveries', roomId, bridgeId: owner.id }) : hrefOf({ page: 'deliveries', roomId, webhookId: owner.id });
  const redeliver = () => whileRedelivering(() => attempt(setProblem, async () => {
    if (!d) return;
    await api('POST', `${self}/delivery/${d.id}/redeliver`);
    setStatus('Sent again: waiting for the answer…');
    let last = d;
    await followRedelivery(self, { id: d.id, attempts: d.attempts.length }, (now) => { last = now; setD(now); }, () => shown.current);
    const a = last.attempts[last.attempts.length - 1];
    setStatus(last.attempts.length > d.attempts.length && a
      ? `Attempt ${a.attempt}: ${statusText(a.status_code)} in ${a.duration_ms} ms; the delivery is ${last.status}.`
      : 'Sent again: the attempt is not recorded yet; it shows here when the page is opened again.');
  }));

  return (
    <>
      <h1 tabIndex={-1} class="delivery-title">Delivery {deliveryId}</h1>
      <p><a href={back}>Back to the deliveries of {hook ? hook.title : `${owner.kind} ${owner.id}`}</a></p>
      <Problem text={problem} />
      {d === null ? (!problem && <p aria-busy="true">Loading the delivery…</p>) : (
        <>
          <dl class="facts">
            <dt>Event</dt><dd>{d.event}</dd>
            <dt>Status</dt><dd class={`delivery-${d.status}`}>{d.status}</dd>
            <dt>Created</dt><dd>{when(d.created)}</dd>
            <dt>Attempts</dt><dd>{d.attempts.length}</dd>
            {d.next_attempt_at && <><dt>Next attempt</dt><dd>{when(d.next_attempt_at)}</dd></>}
          </dl>
          <p><button type="button" aria-disabled={redelivering} onClick={redeliver}>Redeliver</button></p>
          <Status text={status} />

          <section aria-labelledby="request-heading">
            <h2 id="request-heading">Request</h2>
            <p class="request-line">POST {d.request.url ? maskedQuery(d.request.url) : '(no URL recorded)'}</p>
            <Headers headers={d.request.headers} label="Request headers" shorten />
            <figure class="sent">
              <figcaption>Request body</figcaption>
              <pre tabIndex={0}>{prettyBody(d.request.body)}</pre>
            </figure>
          </section>

          <section aria-labelledby="attempts-heading">
            <h2 id="attempts-heading">Attempts</h2>
            {d.attempts.length === 0 ? <p>Not attempted yet.</p> : d.attempts.map((a) => (
              <section key={a.attempt} class="attempt" aria-labelledby={`attempt-${a.attempt}`}>
                <h3 id={`attempt-${a.attempt}`}>Attempt {a.attempt}: {statusText(a.status_code)}</h3>
                <dl class="facts">
                  <dt>Time</dt><dd>{when(a.at)}</dd>
                  <dt>Status</dt><dd>{statusText(a.status_code)}</dd>
                  <dt>Duration</dt><dd>{a.duration_ms} ms</dd>
                  {a.error && <><dt>Error</dt><dd>{a.error}</dd></>}
                </dl>
                {a.response_headers && <Headers headers={a.response_headers} label={`Response headers of attempt ${a.attempt}`} shorten={false} />}
                {a.response_body ? (
                  <figure class="sent">
                    <figcaption>Response body of attempt {a.attempt} (excerpt)</figcaption>
                    <pre tabIndex={0}>{prettyBody(a.response_body)}</pre>
                  </figure>
                ) : <p class="muted">No response body.</p>}
              </section>
            ))}
          </section>

          {(owner.kind === 'webhook' || d.reply !== null) && <section aria-labelledby="reply-heading">
            <h2 id="reply-heading">Reply</h2>
            {d.reply === null ? <p>No reply: the answer posted nothing to the room.</p>
              : d.reply.message_id ? <p>Posted to the room: <a href={hrefOf({ page: 'room', roomId })}>message {d.reply.message_id}</a></p>
                : <p class="bad">Not posted: {d.reply.error}</p>}
          </section>}
        </>
      )}
    </>
  );
}

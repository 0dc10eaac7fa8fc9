import { useEffect, useState } from 'preact/hooks';
import { WEBHOOK_EVENT_NAMES } from '@app/contracts/models/webhook-event-names';
import { WEBHOOK_AUTHENTICATIONS } from '@app/contracts/models/webhook-registration';
import { allItems, api, ApiError } from '../api';
import { hrefOf } from '../routes';
import { Trend } from '../charts';
import { attempt, Problem, ShownOnce, Status, useConfirm, useInFlight, usePageTitle, when } from '../ui';
import { BridgesSection } from './bridges';

export interface WebhookItem {
  id: number;
  name: string | null;
  url: string;
  event: string;
  pattern: string | null;
  delivery?: string;
  enabled: boolean;
  last_success_at: string | null;
  failing_since: string | null;
  consecutive_failures: number;
  disabled_reason: string | null;
}

/** Asks before a destructive action (useConfirm's `ask`): one dialog for the whole page. */
export type Confirm = ReturnType<typeof useConfirm>[1];

interface AddonItem {
  id: number;
  name: string;
  key: string;
  room_id: number | null;
}

/** A room's webhooks with their health, its bridges to chat platforms, and its add-ons. */
export function IntegrationsPage({ roomId }: { roomId: number }) {
  const base = `/v2/room/${roomId}`;
  const [hooks, setHooks] = useState<WebhookItem[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [url, setUrl] = useState('');
  const [event, setEvent] = useState<string>('room_message');
  const [pattern, setPattern] = useState('');
  const [name, setName] = useState('');
  const [authentication, setAuthentication] = useState<string>('jwt');
  // The 201's signing secret: the API never answers it again, so this is the one chance to copy it.
  const [secret, setSecret] = useState<string | null>(null);
  const [adding, whileAdding] = useInFlight();
  const [deleting, whileDeleting] = useInFlight();
  const [dialog, confirm] = useConfirm();
  usePageTitle('Integrations');

  const load = () => allItems<WebhookItem>(`${base}/webhook`).then(setHooks, (err: Error) => setProblem(err.message));
  useEffect(() => void load(), [roomId]);

  const add = (e: Event) => {
    e.preventDefault();
    return whileAdding(() => attempt(setProblem, async () => {
      setSecret(null);
      const made = await api<{ id: number; secret?: string }>('POST', `${base}/webhook`, {
        url: url.trim(), event, authentication, ...(pattern ? { pattern } : {}), ...(name.trim() ? { name: name.trim() } : {}),
      });
      // An add-on's webhook signs with the add-on's oauthSecret: its 201 has no secret to show.
      setSecret(made.secret ?? null);
      setUrl('');
      setPattern('');
      setName('');
      setStatus('Webhook added.');
      await load();
    }));
  };
  const remove = (w: WebhookItem) => whileDeleting(async () => {
    if (!await confirm({ question: `Delete webhook ${w.name || w.id}?`, details: [`Nothing more is sent to ${w.url}.`] })) return;
    await attempt(setProblem, async () => {
      await api('DELETE', `${base}/webhook/${w.id}`);
      setStatus(`Webhook ${w.name ?? w.id} deleted.`);
      await load();
    });
  });

  return (
    <>
      <h1 tabIndex={-1}>Integrations</h1>
      <p><a href={hrefOf({ page: 'room', roomId })}>Back to the room</a></p>
      <h2>Webhooks</h2>
      <form onSubmit={add} class="stack">
        <label for="webhook-url">Webhook URL</label>
        <input id="webhook-url" type="url" required placeholder="https://example.com/hook" value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
        <label for="webhook-event">Event</label>
        <select id="webhook-event" value={event} onChange={(e) => setEvent(e.currentTarget.value)}>
          {WEBHOOK_EVENT_NAMES.map((n) => <option key={n} value={n}>{n}</option>)}
        </select>
        <label for="webhook-pattern">Pattern</label>
        <input id="webhook-pattern" aria-describedby="pattern-help" value={pattern} onInput={(e) => setPattern(e.currentTarget.value)} />
        <small id="pattern-help">Optional, room_message only: a regular expression the message must match.</small>
        <label for="webhook-authentication">Authentication</label>
        <select id="webhook-authentication" aria-describedby="authentication-help" value={authentication} onChange={(e) => setAuthentication(e.currentTarget.value)}>
          {WEBHOOK_AUTHENTICATIONS.map((a) => <option key={a} value={a}>{a}</option>)}
        </select>
        <small id="authentication-help">jwt: each delivery is signed (a JWT with the webhook's secret, and the webhook-signature header); none: no JWT.</small>
        <label for="webhook-name">Name</label>
        <input id="webhook-name" maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <button type="submit" disabled={adding}>Add webhook</button>
      </form>
      {secret && (
        <ShownOnce id="webhook-secret" heading="Webhook added" note="Copy this signing secret now: it is not shown again."
          label="Signing secret" value={secret} what="signing secret" setStatus={setStatus} />
      )}
      <Problem text={problem} />
      <Status text={status} />
      {hooks === null ? <p aria-busy="true">Loading webhooks…</p> : hooks.length === 0 ? <p>No webhooks in this room.</p> : (
        <div class="wide-table">
          <table class="list">
            <thead><tr><th scope="col">Webhook</th><th scope="col">Event</th><th scope="col">Health</th><th scope="col">Last 24 hours</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
            <tbody>
              {hooks.map((w) => (
                <tr key={w.id}>
                  <td id={`webhook-${w.id}`}>
                    <a href={hrefOf({ page: 'deliveries', roomId, webhookId: w.id })}>{w.name || `Webhook ${w.id}`}</a>
                    <div class="muted url">{w.url}</div>
                  </td>
                  <td>{w.event}{w.pattern ? <div class="muted">pattern {w.pattern}</div> : null}</td>
                  <td><Health w={w} /></td>
                  <td><Trend self={`${base}/webhook/${w.id}`} /></td>
                  <td><button type="button" aria-describedby={`webhook-${w.id}`} aria-disabled={deleting} onClick={() => remove(w)}>Delete</button></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <BridgesSection roomId={roomId} confirm={confirm} />
      <Addons roomId={roomId} confirm={confirm} />
      {dialog}
    </>
  );
}

/** Reasons the service keeps as a code, in words (the code kept beside them, as the API shows it). */
const DISABLED_REASONS: Record<string, string> = {
  creator_lost_access: 'its creator may no longer read this room (creator_lost_access); someone who may read it can enable it again',
};

export function Health({ w }: { w: WebhookItem }) {
  if (!w.enabled) {
    const reason = w.disabled_reason ? DISABLED_REASONS[w.disabled_reason] ?? w.disabled_reason : null;
    return <span class="bad">Disabled{reason ? `: ${reason}` : ''}</span>;
  }
  if (w.failing_since) {
    const n = w.consecutive_failures;
    return <span class="warn">Failing since {when(w.failing_since)} ({n} {n === 1 ? 'failure' : 'failures'} in a row)</span>;
  }
  return <span class="good">Enabled{w.last_success_at ? `, last delivered ${when(w.last_success_at)}` : ''}</span>;
}

function Addons({ roomId, confirm }: { roomId: number; confirm: Confirm }) {
  const [addons, setAddons] = useState<AddonItem[] | null>(null);
  const [descriptor, setDescriptor] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [installing, whileInstalling] = useInFlight();
  const [uninstalling, whileUninstalling] = useInFlight();
  // Add-ons are a group admin's: anyone else is told so rather than shown an error.
  const load = () => allItems<AddonItem>('/v2/addons').then((all) => setAddons(all.filter((a) => a.room_id === roomId)), (err: Error) => {
    setProblem(err instanceof ApiError && err.status === 403 ? 'Only group admins install and uninstall add-ons.' : err.message);
  });
  useEffect(() => void load(), [roomId]);

  const install = (e: Event) => {
    e.preventDefault();
    return whileInstalling(() => attempt(setProblem, async () => {
      await api('POST', '/v2/addons', { url: descriptor.trim(), room: roomId });
      setDescriptor('');
      await load();
    }));
  };
  const uninstall = (a: AddonItem) => whileUninstalling(async () => {
    if (!await confirm({ question: `Uninstall add-on ${a.name || a.key}?`, details: ['Its webhooks and tokens are removed, and the add-on is told.'] })) return;
    await attempt(setProblem, async () => {
      await api('DELETE', `/v2/addons/${a.id}`);
      await load();
    });
  });
  return (
    <>
      <h2>Add-ons</h2>
      <form class="inline" onSubmit={install}>
        <label for="descriptor-url">Descriptor URL</label>
        <input id="descriptor-url" type="url" required value={descriptor} onInput={(e) => setDescriptor(e.currentTarget.value)} />
        <button type="submit" disabled={installing}>Install add-on</button>
      </form>
      <Problem text={problem} />
      {addons === null ? null : addons.length === 0 ? <p>No add-ons installed in this room.</p> : (
        <ul>{addons.map((a) => (
          <li key={a.id} id={`addon-${a.id}`}>{a.name || a.key} <button type="button" aria-describedby={`addon-${a.id}`} aria-disabled={uninstalling} onClick={() => uninstall(a)}>Uninstall</button></li>
        ))}</ul>
      )}
    </>
  );
}

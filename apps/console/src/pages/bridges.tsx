import { useEffect, useState } from 'preact/hooks';
import { BRIDGE_INBOUND_KINDS, BRIDGE_KINDS, BRIDGE_PLATFORM_NAMES, BridgeKind, DEFAULT_BRIDGE_EVENTS } from '@app/contracts/models/bridge';
import { WEBHOOK_EVENT_NAMES } from '@app/contracts/models/webhook-event-names';
import { allItems, api } from '../api';
import { hrefOf } from '../routes';
import { Trend } from '../charts';
import { attempt, Problem, ShownOnce, Status, useInFlight } from '../ui';
import { Confirm, Health, WebhookItem } from './integrations';

/** A bridge as the API shows it (GET /v2/room/{room}/bridge). */
export interface BridgeItem {
  id: number;
  kind: BridgeKind;
  name: string;
  /** Masked past its first path segment: a platform's incoming-webhook URL is a credential. */
  url: string;
  events: string[];
  enabled: boolean;
  disabled_reason: string | null;
  health: { last_success_at: string | null; failing_since: string | null; consecutive_failures: number; last_error: string | null };
  matrix?: { room_id: string };
  inbound: { enabled: boolean; url?: string; verified_by: 'token' | 'hmac' | null };
}

interface TestResult { status: number | null; body: string; outcome: string; duration_ms: number }

export const platformOf = (b: { kind: BridgeKind }): string => BRIDGE_PLATFORM_NAMES[b.kind] ?? b.kind;
export const bridgeTitle = (b: BridgeItem): string => b.name || `${platformOf(b)} bridge ${b.id}`;

/** A bridge's health in the shape the webhooks' Health shows. */
export const healthOf = (b: BridgeItem): WebhookItem => ({
  id: b.id, name: b.name, url: b.url, event: b.events[0] ?? '', pattern: null, enabled: b.enabled, disabled_reason: b.disabled_reason,
  last_success_at: b.health.last_success_at, failing_since: b.health.failing_since, consecutive_failures: b.health.consecutive_failures,
});

const DEFAULTS = new Set<string>(DEFAULT_BRIDGE_EVENTS);

/**
 * A room's bridges to chat platforms: listed with their health, added (the inbound URL shown
 * once), tested (the platform's answer shown), enabled again, removed, and each one's
 * deliveries a link away.
 */
export function BridgesSection({ roomId, confirm }: { roomId: number; confirm: Confirm }) {
  const base = `/v2/room/${roomId}/bridge`;
  const [bridges, setBridges] = useState<BridgeItem[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [kind, setKind] = useState<BridgeKind>('slack');
  const [url, setUrl] = useState('');
  const [name, setName] = useState('');
  const [events, setEvents] = useState<ReadonlySet<string>>(DEFAULTS);
  const [matrixRoom, setMatrixRoom] = useState('');
  const [matrixToken, setMatrixToken] = useState('');
  const [inbound, setInbound] = useState(false);
  const [inboundSecret, setInboundSecret] = useState('');
  // The 201's inbound URL: the API never answers it again, so this is the one chance to copy it.
  const [inboundUrl, setInboundUrl] = useState<{ url: string; platform: string } | null>(null);
  const [tested, setTested] = useState<{ bridge: BridgeItem; result: TestResult } | null>(null);
  const [testing, setTesting] = useState<number | null>(null);
  const [adding, whileAdding] = useInFlight();
  // One change at a time from the list: a second click (or a second row's button) waits for the first.
  const [changing, whileChanging] = useInFlight();

  const load = () => allItems<BridgeItem>(base).then(setBridges, (err: Error) => setProblem(err.message));
  useEffect(() => void load(), [roomId]);

  const inboundOffered = BRIDGE_INBOUND_KINDS.includes(kind);
  const secretField = kind === 'teams' ? 'hmac_secret' : 'token';
  const toggle = (event: string, on: boolean) => {
    const next = new Set(events);
    if (on) next.add(event); else next.delete(event);
    setEvents(next);
  };

  const add = (e: Event) => {
    e.preventDefault();
    return whileAdding(() => attempt(setProblem, async () => {
      setInboundUrl(null);
      const made = await api<BridgeItem>('POST', base, {
        kind, url: url.trim(), events: WEBHOOK_EVENT_NAMES.filter((n) => events.has(n)),
        ...(name.trim() ? { name: name.trim() } : {}),
        ...(kind === 'matrix' ? { matrix: { room_id: matrixRoom.trim(), access_token: matrixToken } } : {}),
        ...(inboundOffered && inbound ? { inbound: { enabled: true, ...(inboundSecret ? { [secretField]: inboundSecret } : {}) } } : {}),
      });
      setInboundUrl(made.inbound.url ? { url: made.inbound.url, platform: platformOf(made) } : null);
      setUrl('');
      setName('');
      setMatrixRoom('');
      setMatrixToken('');
      setInboundSecret('');
      setInbound(false);
      setStatus(`${platformOf(made)} bridge added.`);
      await load();
    }));
  };
  const test = (b: BridgeItem) => {
    setTesting(b.id);
    return attempt(setProblem, async () => {
      setTested(null);
      const result = await api<TestResult>('POST', `${base}/${b.id}/test`);
      setTested({ bridge: b, result });
      await load();
    }).finally(() => setTesting(null));
  };
  const enable = (b: BridgeItem) => whileChanging(async () => {
    if (!await confirm({ question: `Enable ${bridgeTitle(b)} again?`, details: [`What happens in this room is posted to ${platformOf(b)} again from now on.`] })) return;
    await attempt(setProblem, async () => {
      await api('POST', `${base}/${b.id}/enable`);
      setStatus(`${bridgeTitle(b)} enabled.`);
      await load();
    });
  });
  const remove = (b: BridgeItem) => whileChanging(async () => {
    if (!await confirm({ question: `Remove bridge ${bridgeTitle(b)}?`, details: [`Nothing more is posted to ${platformOf(b)}${b.inbound.enabled ? ', and its inbound URL stops working' : ''}.`] })) return;
    await attempt(setProblem, async () => {
      await api('DELETE', `${base}/${b.id}`);
      if (tested?.bridge.id === b.id) setTested(null);
      setStatus(`${bridgeTitle(b)} removed.`);
      await load();
    });
  });

  return (
    <section aria-labelledby="bridges-heading">
      <h2 id="bridges-heading">Bridges</h2>
      <p class="muted">Post what happens in this room to a channel of Slack, Mattermost, Discord, Microsoft Teams, Google Chat, Rocket.Chat or Matrix, and (inbound) bring that channel's messages back.</p>
      <form onSubmit={add} class="stack" aria-labelledby="add-bridge-heading">
        <h3 id="add-bridge-heading">Add bridge</h3>
        <label for="bridge-kind">Platform</label>
        <select id="bridge-kind" value={kind} onChange={(e) => setKind(e.currentTarget.value as BridgeKind)}>
          {BRIDGE_KINDS.map((k) => <option key={k} value={k}>{BRIDGE_PLATFORM_NAMES[k]}</option>)}
        </select>
        <label for="bridge-url">{kind === 'matrix' ? 'Homeserver URL' : 'Bridge URL'}</label>
        <input id="bridge-url" type="url" required aria-describedby="bridge-url-help" placeholder={kind === 'matrix' ? 'https://matrix.example.org' : 'https://hooks.example.com/…'}
          value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
        <small id="bridge-url-help">{kind === 'matrix'
          ? 'The base URL of the homeserver the bot user is on.'
          : `The incoming webhook URL ${BRIDGE_PLATFORM_NAMES[kind]} gave for the channel. It is a credential: it is shown masked from now on.`}</small>
        {kind === 'matrix' && (
          <>
            <label for="bridge-matrix-room">Matrix room id</label>
            <input id="bridge-matrix-room" required placeholder="!abc:example.org" value={matrixRoom} onInput={(e) => setMatrixRoom(e.currentTarget.value)} />
            <label for="bridge-matrix-token">Bot access token</label>
            <input id="bridge-matrix-token" type="password" required autocomplete="off" aria-describedby="matrix-token-help"
              value={matrixToken} onInput={(e) => setMatrixToken(e.currentTarget.value)} />
            <small id="matrix-token-help">The access token of the Matrix user that posts; kept encrypted, never shown again.</small>
          </>
        )}
        <fieldset>
          <legend>What it posts</legend>
          {WEBHOOK_EVENT_NAMES.map((n) => (
            <label key={n} class="check"><input type="checkbox" checked={events.has(n)} onChange={(e) => toggle(n, e.currentTarget.checked)} />{n}</label>
          ))}
        </fieldset>
        <label for="bridge-name">Name</label>
        <input id="bridge-name" maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        {inboundOffered && (
          <>
            <label class="check">
              <input type="checkbox" checked={inbound} aria-describedby="inbound-help" onChange={(e) => setInbound(e.currentTarget.checked)} />
              Inbound: bring the channel's messages into this room
            </label>
            <small id="inbound-help">You get a URL for {BRIDGE_PLATFORM_NAMES[kind]}'s outgoing webhook, shown once.</small>
            {inbound && (
              <>
                <label for="bridge-inbound-secret">{kind === 'teams' ? 'HMAC security token (optional)' : 'Verification token (optional)'}</label>
                <input id="bridge-inbound-secret" type="password" autocomplete="off" aria-describedby="inbound-secret-help"
                  value={inboundSecret} onInput={(e) => setInboundSecret(e.currentTarget.value)} />
                <small id="inbound-secret-help">{kind === 'teams'
                  ? 'The security token Teams showed when the outgoing webhook was made: requests not signed with it are refused.'
                  : `The token ${BRIDGE_PLATFORM_NAMES[kind]} sends with each request: requests without it are refused.`}</small>
              </>
            )}
          </>
        )}
        <button type="submit" disabled={adding}>Add bridge</button>
      </form>
      {inboundUrl && (
        <ShownOnce id="bridge-inbound-url" heading={`${inboundUrl.platform} bridge added`}
          note={`Copy this URL into ${inboundUrl.platform}'s outgoing webhook now: it is not shown again.`}
          label="Inbound URL" value={inboundUrl.url} what="inbound URL" setStatus={setStatus} />
      )}
      <Problem text={problem} />
      <Status text={status} />
      {bridges === null ? <p aria-busy="true">Loading bridges…</p> : bridges.length === 0 ? <p>No bridges in this room.</p> : (
        <div class="wide-table">
          <table class="list">
            <caption class="visually-hidden">Bridges of this room</caption>
            <thead><tr><th scope="col" class="wide">Bridge</th><th scope="col">Events</th><th scope="col">Inbound</th><th scope="col">Health</th><th scope="col">Last 24 hours</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
            <tbody>
              {bridges.map((b) => (
                <tr key={b.id}>
                  <td id={`bridge-${b.id}`}>
                    <a href={hrefOf({ page: 'bridge-deliveries', roomId, bridgeId: b.id })}>{bridgeTitle(b)}</a>
                    <div class="muted">{platformOf(b)} · <span class="url">{b.url}</span></div>
                    {b.matrix && <div class="muted">room {b.matrix.room_id}</div>}
                  </td>
                  <td>{b.events.join(', ')}</td>
                  <td>{b.inbound.enabled ? `On${b.inbound.verified_by ? ` (${b.inbound.verified_by === 'hmac' ? 'HMAC' : 'token'})` : ''}` : 'Off'}</td>
                  <td><Health w={healthOf(b)} /></td>
                  <td><Trend self={`${base}/${b.id}`} /></td>
                  <td class="actions">
                    <button type="button" aria-describedby={`bridge-${b.id}`} disabled={testing === b.id} onClick={() => test(b)}>Test</button>{' '}
                    {!b.enabled && <><button type="button" aria-describedby={`bridge-${b.id}`} aria-disabled={changing} onClick={() => enable(b)}>Enable</button>{' '}</>}
                    <button type="button" class="secondary" aria-describedby={`bridge-${b.id}`} aria-disabled={changing} onClick={() => remove(b)}>Remove</button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {tested && <TestAnswer bridge={tested.bridge} result={tested.result} onClose={() => setTested(null)} />}
    </section>
  );
}

const OUTCOMES: Record<string, string> = {
  delivered: 'posted',
  retry: 'not posted; a delivery would be tried again',
  failed: 'not posted; a delivery would fail',
  never: 'refused for good; the bridge would be disabled',
};

/** What the platform answered to a test post. */
function TestAnswer({ bridge, result, onClose }: { bridge: BridgeItem; result: TestResult; onClose: () => void }) {
  const ok = result.outcome === 'delivered';
  return (
    <section class="detail" aria-labelledby="bridge-test-heading">
      <h3 id="bridge-test-heading" tabIndex={-1} ref={(h) => h?.focus()}>Test of {bridgeTitle(bridge)}</h3>
      <p class={ok ? 'good' : 'bad'}>
        {platformOf(bridge)} answered {result.status === null ? 'nothing' : `HTTP ${result.status}`} in {result.duration_ms} ms: {OUTCOMES[result.outcome] ?? result.outcome}.
      </p>
      {result.body && <pre aria-label={`${platformOf(bridge)}'s answer`}>{result.body}</pre>}
      <button type="button" class="secondary" onClick={onClose}>Close</button>
    </section>
  );
}

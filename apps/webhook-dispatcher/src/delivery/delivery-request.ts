import { DEFAULT_OUTBOUND_USER_AGENT, SecretBox, SecretBoxError, secretPurpose } from '@app/common';
import { WebhookRegistration } from '@app/contracts';
import { signWebhookJwt } from '../signing/jwt';
import { standardWebhookHeaders } from '../signing/standard-webhooks';
import { DeliveryJob } from './delivery-job';
import { urlProblemOf } from '../registrations/opened-urls';

export interface DeliveryRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** What this request carries that no record or log may show. */
  secrets: string[];
}

/**
 * The POST of one attempt: the envelope as built when the event was matched, the Standard
 * Webhooks headers (`webhook-id` = the delivery id, the same on every retry) and, for
 * `authentication: jwt`, `Authorization: JWT <token>` signed with the registration's secret
 * (an add-on's oauthSecret), also given as the `signed_request` query parameter. Its `sub`
 * is the user who caused the event, else whoever registered the webhook. Signed afresh per
 * attempt: the JWT is short-lived. `User-Agent` and `Content-Length` are set here, not left to
 * the HTTP client, so that the delivery log's copy of the request shows them as sent.
 */
export function deliveryRequest(o: {
  job: DeliveryJob; registration: WebhookRegistration;
  /** The registration's signing secret in clear (it travels sealed: see signingSecretOf). */
  secret: string;
  now: Date; traceparent?: string;
}): DeliveryRequest {
  const { job, registration, secret } = o;
  const signed = standardWebhookHeaders({ secret, deliveryId: job.deliveryId, timestamp: o.now, body: job.envelopeBody });
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(job.envelopeBody, 'utf8')),
    'User-Agent': DEFAULT_OUTBOUND_USER_AGENT,
    ...signed,
  };
  // W3C Trace Context: the receiver may join the trace of the request that caused the event.
  if (o.traceparent) headers.traceparent = o.traceparent;
  const secrets = [secret, ...signed['webhook-signature'].split(' ').map((s) => s.replace(/^v1,/, ''))];
  let url = registration.url;
  if (registration.authentication === 'jwt') {
    const token = signWebhookJwt({
      secret,
      issuer: registration.oauthClientId ?? String(registration.id),
      userId: job.actorUserId ?? registration.userId,
      roomId: job.roomId,
      now: o.now,
    });
    headers.Authorization = `JWT ${token}`;
    // Where add-on frameworks read it (ac-node-hipchat knows only this and `JWT token=`).
    url = withQueryParameter(url, 'signed_request', token);
    secrets.push(token);
  }
  return { url, headers, body: job.envelopeBody, secrets: [...secrets, ...queryValues(registration.url)] };
}

/** The URL with one more parameter; the registered query string is kept byte for byte. */
export function withQueryParameter(url: string, name: string, value: string): string {
  const hash = url.indexOf('#');
  const base = hash === -1 ? url : url.slice(0, hash);
  const separator = !base.includes('?') ? '?' : /[?&]$/.test(base) ? '' : '&';
  return `${base}${separator}${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
}

/** Add-on frameworks put their own tokens in the registered URL's query string. */
function queryValues(url: string): string[] {
  try {
    return [...new URL(url).searchParams.values()].filter((v) => v.length >= 8);
  } catch {
    return [];
  }
}

/**
 * The registration's signing secret in clear, opened here, where it signs: the rooms
 * service keeps it sealed and sends it sealed (ListRegistrationsV1), so it is in clear
 * nowhere else. A value in clear (a rooms service of the previous version) is taken as it
 * is. A message (never the value) when it cannot be opened: a key SECRETS_KEYS lacks.
 */
export function signingSecretOf(registration: WebhookRegistration, box: SecretBox): { secret: string } | { problem: string } {
  // Nothing is sent to a URL no key opened (it is no URL): the attempt fails as unsignable, retried.
  const urlProblem = urlProblemOf(registration);
  if (urlProblem !== null) return { problem: urlProblem };
  if (typeof registration.secret !== 'string') return { problem: 'not sent: the webhook has no signing secret' };
  try {
    return { secret: box.reveal(registration.secret, secretPurpose.signing(registration)) };
  } catch (err) {
    if (err instanceof SecretBoxError) return { problem: `not sent: its signing secret cannot be decrypted: ${err.message}` };
    throw err;
  }
}

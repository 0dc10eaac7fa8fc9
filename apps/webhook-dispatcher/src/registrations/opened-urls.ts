import { AppLogger, isUnopenedUrl, openWebhookUrl, SecretBox } from '@app/common';
import { WebhookRegistration } from '@app/contracts';
import { RegistrationSnapshot } from './registrations';

/**
 * A snapshot (or the changes) as the rooms service sends it, each URL opened: the rooms
 * service keeps a webhook's or bridge's URL sealed (secretPurpose.webhookUrl: a platform's
 * incoming-webhook URL is its credential) and sends it sealed. Opened here, once per form
 * loaded, not per delivery: the index keeps the forms until the next load. A URL sent in
 * clear (a rooms service of the previous version) is taken as it is; one no key opens stays
 * sealed, and its deliveries are not sent (urlProblemOf), named in a warning by the ids of
 * its registrations, never by a value.
 */
export function withOpenedUrls(snapshot: RegistrationSnapshot, box: SecretBox, logger?: AppLogger): RegistrationSnapshot {
  const unopened = new Set<number>();
  const open = (r: WebhookRegistration): WebhookRegistration => {
    const url = openWebhookUrl(box, r.url, r.id);
    if (isUnopenedUrl(url)) unopened.add(r.id);
    return url === r.url ? r : { ...r, url };
  };
  const opened = {
    ...snapshot,
    registrations: snapshot.registrations.map(open),
    ...(snapshot.removed ? { removed: snapshot.removed.map(open) } : {}),
  };
  if (unopened.size > 0) {
    logger?.warn({ webhookIds: [...unopened].sort((a, b) => a - b) },
      'webhook URLs that no key of SECRETS_KEYS decrypts: their deliveries are not sent until the key is given back');
  }
  return opened;
}

/** Why nothing is sent to a registration's URL (one no key opened: see withOpenedUrls), or null. */
export function urlProblemOf(registration: Pick<WebhookRegistration, 'url'>): string | null {
  return isUnopenedUrl(registration.url) ? 'not sent: its URL cannot be decrypted (sealed with a key SECRETS_KEYS does not hold)' : null;
}

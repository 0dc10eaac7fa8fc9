import { SecretBox, SecretBoxError } from '@app/common';
import { SECRET_PLACES, SecretPlace, SecretStore } from './secrets.repository';

/** What sealing every stored secret under the current key did, place by place. */
export interface ResealReport {
  keyId: string;
  /** Sealed now: values kept in clear, or under another key. */
  resealed: Record<SecretPlace, number>;
  /** Values that could not be opened (a key SECRETS_KEYS no longer holds, or altered): left as they are. */
  unreadable: Record<SecretPlace, number>;
  /** The key ids those unreadable values name. */
  unknownKeys: string[];
  /** Every stored secret, whatever its key. */
  total: Record<SecretPlace, number>;
}

const PAGE = 500;
const zero = (): Record<SecretPlace, number> => Object.fromEntries(SECRET_PLACES.map((p) => [p, 0])) as Record<SecretPlace, number>;
export const sum = (counts: Record<SecretPlace, number>): number => Object.values(counts).reduce((a, b) => a + b, 0);

/**
 * Seals every stored secret with the current key (the first of SECRETS_KEYS): values in
 * clear (written before secrets were sealed, or by a replica of that version during a
 * rolling update) and values under an older key. Run by the rooms service on start and by
 * `cli secrets rotate-key`. Idempotent, and safe with several replicas at once: each row is
 * replaced by one statement that compares the value it read (a row another replica sealed
 * first, or deleted meanwhile, is left alone).
 */
export async function resealSecrets(store: SecretStore, box: SecretBox): Promise<ResealReport> {
  const report: ResealReport = { keyId: box.currentKeyId, resealed: zero(), unreadable: zero(), unknownKeys: [], total: zero() };
  for (const place of SECRET_PLACES) {
    let after: string[] | null = null;
    for (;;) {
      const page = await store.notUnder(place, box.currentKeyId, PAGE, after);
      for (const s of page) {
        let sealed: string | null;
        try {
          sealed = box.reseal(s.value, s.purpose);
        } catch (err) {
          if (!(err instanceof SecretBoxError)) throw err;
          report.unreadable[place]++;
          const keyId = SecretBox.keyIdOf(s.value);
          if (keyId !== null && !box.keyIds.includes(keyId) && !report.unknownKeys.includes(keyId)) report.unknownKeys.push(keyId);
          continue;
        }
        if (sealed !== null && await store.replace(s, sealed)) report.resealed[place]++;
      }
      if (page.length < PAGE) break;
      after = page[page.length - 1].row;
    }
    report.total[place] = await store.count(place);
  }
  return report;
}

/** The report in a line for an operator (counts and key ids, never a value). */
export function describeReseal(r: ResealReport): string {
  const names: Record<SecretPlace, string> = {
    oauth_clients: 'OAuth clients', webhooks: 'webhooks', webhooks_removed: 'removed webhooks', applied_commands: 'command replies',
    bridge_matrix_tokens: 'bridges\' Matrix tokens', bridge_inbound_tokens: 'bridges\' inbound tokens', bridge_inbound_hmac_secrets: 'bridges\' inbound HMAC secrets',
    removed_bridge_matrix_tokens: 'removed bridges\' Matrix tokens', bridge_inbound_keys: 'bridges\' inbound URL keys in command replies',
    webhook_urls: 'webhook and bridge URLs', removed_webhook_urls: 'removed webhooks\' and bridges\' URLs', webhook_reply_urls: 'webhook URLs in command replies',
  };
  const by = (counts: Record<SecretPlace, number>) => SECRET_PLACES.filter((p) => counts[p] > 0).map((p) => `${names[p]} ${counts[p]}`).join(', ');
  let line = `re-encrypted ${sum(r.resealed)} secret(s) under key ${r.keyId}${sum(r.resealed) > 0 ? ` (${by(r.resealed)})` : ''}; `
    + `${sum(r.total) - sum(r.unreadable)} of ${sum(r.total)} stored secret(s) are now under it`;
  if (sum(r.unreadable) > 0) {
    line += `; ${sum(r.unreadable)} could not be decrypted (${by(r.unreadable)})`
      + (r.unknownKeys.length > 0 ? `: sealed with key(s) ${r.unknownKeys.join(', ')}, which SECRETS_KEYS does not hold` : ': altered, or sealed for another row');
  }
  return line;
}

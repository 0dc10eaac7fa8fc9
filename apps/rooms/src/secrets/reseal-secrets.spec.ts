import { randomBytes } from 'node:crypto';
import { SecretBox, secretPurpose } from '@app/common';
import { describeReseal, resealSecrets, sum } from './reseal-secrets';
import { SECRET_PLACES, SecretPlace, SecretStore, StoredSecret } from './secrets.repository';

const key = (id: string) => ({ id, key: randomBytes(32) });
const k1 = key('k1');
const k2 = key('k2');
const gone = key('gone');

/** A store in memory: rows by place, read in key order as the SQL does. */
class FakeStore implements SecretStore {
  rows: StoredSecret[] = [];
  /** Values replaced behind the reader's back (another replica), by row key. */
  raced = new Set<string>();
  /** Replacing a row of this place keeps its old value in a new row of another, as the webhooks trigger keeps a form. */
  keepsForm: Partial<Record<SecretPlace, SecretPlace>> = {};

  add(place: SecretPlace, id: string, purpose: string, value: string): void {
    this.rows.push({ place, row: [id], purpose, value });
  }

  async notUnder(place: SecretPlace, keyId: string, limit: number, after: string[] | null): Promise<StoredSecret[]> {
    return this.rows
      .filter((r) => r.place === place && !r.value.startsWith(`enc:v1:${keyId}:`) && (after === null || r.row[0] > after[0]))
      .sort((a, b) => a.row[0].localeCompare(b.row[0]))
      .slice(0, limit)
      .map((r) => ({ ...r }));
  }

  async count(place: SecretPlace): Promise<number> {
    return this.rows.filter((r) => r.place === place).length;
  }

  async replace(s: StoredSecret, value: string): Promise<boolean> {
    const row = this.rows.find((r) => r.place === s.place && r.row[0] === s.row[0])!;
    if (this.raced.has(s.row[0]) || row.value !== s.value) return false;
    const kept = this.keepsForm[s.place];
    if (kept) this.rows.push({ place: kept, row: [`${s.row[0]}/${this.rows.length}`], purpose: s.purpose, value: row.value });
    row.value = value;
    return true;
  }

  valueOf(place: SecretPlace, id: string): string {
    return this.rows.find((r) => r.place === place && r.row[0] === id)!.value;
  }
}

describe('resealSecrets', () => {
  it('seals values kept in clear and those under an older key, leaves current ones, and says so in counts', async () => {
    const old = new SecretBox([k1]);
    const box = new SecretBox([k2, k1]);
    const store = new FakeStore();
    store.add('oauth_clients', 'c1', secretPurpose.oauthClient('c1'), 'clear-oauth-secret');
    store.add('webhooks', '001', secretPurpose.webhook(1), old.seal('hook-1', secretPurpose.webhook(1)));
    store.add('webhooks', '002', secretPurpose.webhook(2), box.seal('hook-2', secretPurpose.webhook(2)));
    store.add('applied_commands', 'a', secretPurpose.webhook(1), 'hook-1');

    const report = await resealSecrets(store, box);
    const none = Object.fromEntries(SECRET_PLACES.map((p) => [p, 0]));
    expect(report.resealed).toEqual({ ...none, oauth_clients: 1, webhooks: 1, applied_commands: 1 });
    expect(report.total).toEqual({ ...none, oauth_clients: 1, webhooks: 2, applied_commands: 1 });
    for (const r of store.rows) expect(SecretBox.keyIdOf(r.value)).toBe('k2');
    expect(box.open(store.valueOf('oauth_clients', 'c1'), secretPurpose.oauthClient('c1'))).toBe('clear-oauth-secret');
    expect(box.open(store.valueOf('webhooks', '001'), secretPurpose.webhook(1))).toBe('hook-1');
    expect(describeReseal(report)).toBe(
      're-encrypted 3 secret(s) under key k2 (OAuth clients 1, webhooks 1, command replies 1); 4 of 4 stored secret(s) are now under it');
    expect(describeReseal(report)).not.toMatch(/hook-|clear-oauth/);
  });

  it('is safe to repeat: a second run changes nothing', async () => {
    const box = new SecretBox([k1]);
    const store = new FakeStore();
    store.add('webhooks', '001', secretPurpose.webhook(1), 'hook-1');
    await resealSecrets(store, box);
    const sealed = store.valueOf('webhooks', '001');
    const again = await resealSecrets(store, box);
    expect(again.resealed.webhooks).toBe(0);
    expect(store.valueOf('webhooks', '001')).toBe(sealed);
  });

  it('leaves a row another replica sealed first, and counts only its own', async () => {
    const box = new SecretBox([k1]);
    const store = new FakeStore();
    store.add('webhooks', '001', secretPurpose.webhook(1), 'hook-1');
    store.add('webhooks', '002', secretPurpose.webhook(2), 'hook-2');
    store.raced.add('001');
    expect((await resealSecrets(store, box)).resealed.webhooks).toBe(1);
  });

  it('reads every page, and a value it cannot open does not stop it (named by key id, never by value)', async () => {
    const box = new SecretBox([k1]);
    const store = new FakeStore();
    for (let i = 0; i < 1_203; i++) store.add('webhooks', String(i).padStart(5, '0'), secretPurpose.webhook(i), `hook-${i}`);
    store.add('webhooks', '00000x', secretPurpose.webhook(99_999), new SecretBox([gone]).seal('lost', secretPurpose.webhook(99_999)));
    const report = await resealSecrets(store, box);
    expect(report.resealed.webhooks).toBe(1_203);
    expect(report.unreadable.webhooks).toBe(1);
    expect(report.unknownKeys).toEqual(['gone']);
    expect(describeReseal(report)).toMatch(/1 could not be decrypted \(webhooks 1\): sealed with key\(s\) gone, which SECRETS_KEYS does not hold$/);
  });

  it('reaches a removed bridge\'s Matrix token and a bridge\'s inbound key in a stored reply: after it, the old key can go', async () => {
    const old = new SecretBox([k1]);
    const rotated = new SecretBox([k2, k1]);
    const store = new FakeStore();
    store.keepsForm = { bridge_matrix_tokens: 'removed_bridge_matrix_tokens' };
    store.add('bridge_matrix_tokens', '007', secretPurpose.bridgeToken(7), old.seal('syt_live', secretPurpose.bridgeToken(7)));
    store.add('removed_bridge_matrix_tokens', '008/1', secretPurpose.bridgeToken(8), old.seal('syt_deleted', secretPurpose.bridgeToken(8)));
    store.add('bridge_inbound_keys', 'c1', secretPurpose.bridgeInboundKey(9), old.seal('inbound-key-9', secretPurpose.bridgeInboundKey(9)));
    store.add('bridge_inbound_keys', 'c2', secretPurpose.bridgeInboundKey(10), 'inbound-key-10');

    const report = await resealSecrets(store, rotated);
    // The live bridge's token sealed again left its old form (under k1) among the removed: resealed too.
    expect(report.resealed).toMatchObject({ bridge_matrix_tokens: 1, removed_bridge_matrix_tokens: 2, bridge_inbound_keys: 2 });
    expect(describeReseal(report)).toBe('re-encrypted 5 secret(s) under key k2 (bridges\' Matrix tokens 1, removed bridges\' Matrix tokens 2, '
      + 'bridges\' inbound URL keys in command replies 2); 5 of 5 stored secret(s) are now under it');

    const onlyNew = new SecretBox([k2]);
    const after = await resealSecrets(store, onlyNew);
    expect(sum(after.unreadable)).toBe(0);
    expect(sum(after.resealed)).toBe(0);
    for (const r of store.rows) expect(onlyNew.open(r.value, r.purpose)).toMatch(/^(syt_|inbound-key-)/);
    expect(onlyNew.open(store.valueOf('removed_bridge_matrix_tokens', '008/1'), secretPurpose.bridgeToken(8))).toBe('syt_deleted');
    expect(onlyNew.open(store.valueOf('bridge_inbound_keys', 'c2'), secretPurpose.bridgeInboundKey(10))).toBe('inbound-key-10');
  });

  it('seals webhooks\' and bridges\' URLs kept in clear, their removed forms and those in stored replies, and says so', async () => {
    const store = new FakeStore();
    const old = new SecretBox([k1]);
    const url = 'https://hooks.slack.com/services/T1/B1/SECRET';
    store.add('webhook_urls', '001', secretPurpose.webhookUrl(1), url);
    store.add('removed_webhook_urls', '002/1', secretPurpose.webhookUrl(2), old.seal(`${url}2`, secretPurpose.webhookUrl(2)));
    store.add('webhook_reply_urls', 'c1', secretPurpose.webhookUrl(1), url);
    const box = new SecretBox([k2, k1]);
    const report = await resealSecrets(store, box);
    expect(describeReseal(report)).toBe('re-encrypted 3 secret(s) under key k2 (webhook and bridge URLs 1, removed webhooks\' and bridges\' URLs 1, '
      + 'webhook URLs in command replies 1); 3 of 3 stored secret(s) are now under it');
    expect(box.open(store.valueOf('webhook_urls', '001'), secretPurpose.webhookUrl(1))).toBe(url);
    expect(box.open(store.valueOf('removed_webhook_urls', '002/1'), secretPurpose.webhookUrl(2))).toBe(`${url}2`);
    expect(describeReseal(report)).not.toContain('hooks.slack.com');
  });

  it('names the places it could not open, the new ones too', async () => {
    const store = new FakeStore();
    const lost = new SecretBox([gone]);
    store.add('removed_bridge_matrix_tokens', '008/1', secretPurpose.bridgeToken(8), lost.seal('t', secretPurpose.bridgeToken(8)));
    store.add('bridge_inbound_keys', 'c1', secretPurpose.bridgeInboundKey(9), lost.seal('k', secretPurpose.bridgeInboundKey(9)));
    const report = await resealSecrets(store, new SecretBox([k1]));
    expect(describeReseal(report)).toBe('re-encrypted 0 secret(s) under key k1; 0 of 2 stored secret(s) are now under it; 2 could not be decrypted '
      + '(removed bridges\' Matrix tokens 1, bridges\' inbound URL keys in command replies 1): sealed with key(s) gone, which SECRETS_KEYS does not hold');
  });
});

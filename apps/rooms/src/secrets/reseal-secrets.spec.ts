import { randomBytes } from 'node:crypto';
import { SecretBox, secretPurpose } from '@app/common';
import { describeReseal, resealSecrets } from './reseal-secrets';
import { SecretPlace, SecretStore, StoredSecret } from './secrets.repository';

const key = (id: string) => ({ id, key: randomBytes(32) });
const k1 = key('k1');
const k2 = key('k2');
const gone = key('gone');

/** A store in memory: rows by place, read in key order as the SQL does. */
class FakeStore implements SecretStore {
  rows: StoredSecret[] = [];
  /** Values replaced behind the reader's back (another replica), by row key. */
  raced = new Set<string>();

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
    expect(report.resealed).toEqual({ oauth_clients: 1, webhooks: 1, webhooks_removed: 0, applied_commands: 1, bridge_matrix_tokens: 0, bridge_inbound_tokens: 0, bridge_inbound_hmac_secrets: 0 });
    expect(report.total).toEqual({ oauth_clients: 1, webhooks: 2, webhooks_removed: 0, applied_commands: 1, bridge_matrix_tokens: 0, bridge_inbound_tokens: 0, bridge_inbound_hmac_secrets: 0 });
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
});

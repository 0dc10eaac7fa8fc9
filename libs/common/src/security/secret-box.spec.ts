import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { env } from '../config/env-types';
import { parseConfig } from '../config/load-config';
import { isUnopenedUrl, openWebhookUrl, parseSecretKeys, SecretBox, SecretBoxError, secretPurpose } from './secret-box';

const keyA = randomBytes(32);
const keyB = randomBytes(32);
const boxOf = (...keys: Array<[string, Buffer]>) => new SecretBox(keys.map(([id, key]) => ({ id, key })));

describe('SecretBox', () => {
  const box = boxOf(['a', keyA]);
  const purpose = secretPurpose.webhook(42);

  it('seals into a self-describing string and opens it again', () => {
    const sealed = box.seal('s3cr3t-value', purpose);
    expect(sealed).toMatch(/^enc:v1:a:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{22}:[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('s3cr3t');
    expect(box.open(sealed, purpose)).toBe('s3cr3t-value');
    // A random IV per value: the same secret never seals the same way twice.
    expect(box.seal('s3cr3t-value', purpose)).not.toBe(sealed);
  });

  it('refuses a value sealed with another key of the same id', () => {
    const sealed = box.seal('x', purpose);
    expect(() => boxOf(['a', keyB]).open(sealed, purpose)).toThrow(SecretBoxError);
    expect(() => boxOf(['a', keyB]).open(sealed, purpose)).toThrow(/does not authenticate with key a/);
  });

  it('refuses a tampered tag or ciphertext', () => {
    const sealed = box.seal('x'.repeat(43), purpose);
    const parts = sealed.split(':');
    const flip = (s: string) => Buffer.from(Buffer.from(s, 'base64url').map((b, i) => (i === 0 ? b ^ 1 : b))).toString('base64url');
    const withTag = [...parts.slice(0, 4), flip(parts[4]), parts[5]].join(':');
    const withText = [...parts.slice(0, 5), flip(parts[5])].join(':');
    expect(() => box.open(withTag, purpose)).toThrow(/does not authenticate/);
    expect(() => box.open(withText, purpose)).toThrow(/does not authenticate/);
    expect(() => box.open(parts.slice(0, 5).join(':'), purpose)).toThrow(/malformed/);
  });

  it('names an unknown key id, never a key', () => {
    const sealed = boxOf(['old', keyB]).seal('x', purpose);
    expect(() => box.open(sealed, purpose)).toThrow(/key old, which SECRETS_KEYS does not hold/);
  });

  it('binds a value to its purpose: a ciphertext moved to another row does not open', () => {
    const sealed = box.seal('x', secretPurpose.webhook(1));
    expect(() => box.open(sealed, secretPurpose.webhook(2))).toThrow(/sealed for another purpose/);
    expect(() => box.open(sealed, secretPurpose.oauthClient('1'))).toThrow(SecretBoxError);
  });

  it('refuses a value kept in clear', () => {
    expect(() => box.open('plain-secret', purpose)).toThrow(/not encrypted/);
  });

  it('rotates: the first key seals, the others still open; reseal moves a value to the current key', () => {
    const old = boxOf(['a', keyA]);
    const rotated = boxOf(['b', keyB], ['a', keyA]);
    const sealedOld = old.seal('v', purpose);
    expect(rotated.open(sealedOld, purpose)).toBe('v');
    expect(rotated.isCurrent(sealedOld)).toBe(false);
    const resealed = rotated.reseal(sealedOld, purpose)!;
    expect(SecretBox.keyIdOf(resealed)).toBe('b');
    expect(rotated.open(resealed, purpose)).toBe('v');
    expect(rotated.reseal(resealed, purpose)).toBeNull();
    // A value in clear is sealed as it is.
    expect(rotated.open(rotated.reseal('clear', purpose)!, purpose)).toBe('clear');
  });

  it('never shows its keys when logged or serialized', () => {
    const b = boxOf(['a', keyA], ['b', keyB]);
    const shown = `${JSON.stringify({ b })} ${require('node:util').inspect(b)}`;
    expect(shown).not.toContain(keyA.toString('base64'));
    expect(shown).not.toContain(keyA.toString('hex'));
    expect(JSON.stringify(b)).toBe('"SecretBox(a,b)"');
  });
});

describe('SECRETS_KEYS', () => {
  const entry = (id: string, key: Buffer) => `${id}:${key.toString('base64')}`;
  const shape = { SECRETS_KEYS: env.secretKeys() };
  const parse = (v?: string) => parseConfig(shape, v === undefined ? {} : { SECRETS_KEYS: v });

  it('reads comma-separated keyId:base64 entries, the first one current', () => {
    const box = parse(`${entry('k2', keyB)}, ${entry('k1', keyA)}`).SECRETS_KEYS;
    expect(box.currentKeyId).toBe('k2');
    expect(box.keyIds).toEqual(['k2', 'k1']);
    expect(parseSecretKeys(entry('k1', keyA))[0].key.equals(keyA)).toBe(true);
    // base64url is accepted too
    expect(parseSecretKeys(`k1:${keyA.toString('base64url')}`)[0].key.equals(keyA)).toBe(true);
  });

  it('stops on a missing variable, a wrong length, a duplicate id, naming the variable and never the key', () => {
    const short = randomBytes(16).toString('base64');
    const problems = [
      [undefined, /SECRETS_KEYS: must be set/],
      [`k1:${short}`, /SECRETS_KEYS: the key \(key id k1\): the key must be 32 bytes/],
      [`${entry('k1', keyA)},${entry('k1', keyB)}`, /SECRETS_KEYS: entry 2: the key id k1 is used twice/],
      [keyA.toString('base64'), /SECRETS_KEYS: .*must be keyId:base64/],
      [`bad id:${keyA.toString('base64')}`, /SECRETS_KEYS: the key: the key id must be/],
    ] as const;
    for (const [value, message] of problems) {
      let error: Error | undefined;
      try {
        parse(value);
      } catch (err) {
        error = err as Error;
      }
      expect(error?.message).toMatch(message);
      expect(error?.message).not.toContain(short);
      expect(error?.message).not.toContain(keyA.toString('base64'));
      expect(error?.message).not.toContain(keyB.toString('base64'));
    }
  });

  it('is a zod type like the others', () => {
    expect(env.secretKeys()).toBeInstanceOf(z.ZodEffects);
  });
});

describe('SECRETS_KEYS_FILE', () => {
  const shape = { SECRETS_KEYS: env.secretKeys() };
  const dir = require('node:fs').mkdtempSync(require('node:path').join(require('node:os').tmpdir(), 'keys-'));
  const file = require('node:path').join(dir, 'secrets-keys');
  require('node:fs').writeFileSync(file, `f1:${keyA.toString('base64')}\n`);

  it('reads the keys from the file it names (a mounted secret), the variable winning when both are set', () => {
    expect(parseConfig(shape, { SECRETS_KEYS_FILE: file }).SECRETS_KEYS.currentKeyId).toBe('f1');
    expect(parseConfig(shape, { SECRETS_KEYS_FILE: file, SECRETS_KEYS: `v1:${keyB.toString('base64')}` }).SECRETS_KEYS.currentKeyId).toBe('v1');
  });

  it('names SECRETS_KEYS_FILE when the file cannot be read', () => {
    expect(() => parseConfig(shape, { SECRETS_KEYS_FILE: `${file}.missing` })).toThrow(/SECRETS_KEYS_FILE: must name a readable file \(ENOENT/);
  });
});

describe('openWebhookUrl', () => {
  const box = boxOf(['b', keyB], ['a', keyA]);
  const url = 'https://hooks.slack.com/services/T1/B1/SECRET';

  it('opens a URL sealed for its row; takes one kept in clear as it is', () => {
    expect(openWebhookUrl(box, boxOf(['a', keyA]).seal(url, secretPurpose.webhookUrl(3)), 3)).toBe(url);
    expect(openWebhookUrl(box, url, 3)).toBe(url);
    expect(isUnopenedUrl(url)).toBe(false);
  });

  it('answers as stored, still sealed, a URL no key opens or sealed for another row: never a URL, never a throw', () => {
    const lost = boxOf(['z', randomBytes(32)]).seal(url, secretPurpose.webhookUrl(3));
    expect(openWebhookUrl(box, lost, 3)).toBe(lost);
    const otherRow = box.seal(url, secretPurpose.webhookUrl(4));
    expect(openWebhookUrl(box, otherRow, 3)).toBe(otherRow);
    expect(isUnopenedUrl(openWebhookUrl(box, lost, 3))).toBe(true);
  });
});

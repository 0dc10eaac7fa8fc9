import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (webhook signing secrets, add-ons' OAuth client secrets): AES-256-GCM,
 * a random 12-byte IV per value, stored as a self-describing string
 * `enc:v1:<keyId>:<iv>:<tag>:<ciphertext>` (base64url). The additional data binds each value
 * to its purpose (`webhooks.secret:42`): a ciphertext copied to another row or column does
 * not open there. Keys rotate: the first key seals, every key opens (SECRETS_KEYS).
 */
export const SEALED_PREFIX = 'enc:v1:';

export interface SecretKey {
  id: string;
  key: Buffer;
}

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const B64URL = /^[A-Za-z0-9_-]*$/;

/** Why a stored value did not open: never the value, nor a key. */
export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

/**
 * `keyId:base64-of-32-bytes` entries separated by commas, the first the current key. Throws
 * with the rule broken and the entry's position or id, never a key.
 */
export function parseSecretKeys(value: string): SecretKey[] {
  const entries = value.split(',').map((e) => e.trim());
  const keys: SecretKey[] = [];
  entries.forEach((entry, i) => {
    const which = entries.length > 1 ? `entry ${i + 1}` : 'the key';
    const colon = entry.indexOf(':');
    if (entry === '' || colon <= 0) throw new Error(`${which} must be keyId:base64 of 32 random bytes (keys separated by commas, the first encrypts)`);
    const id = entry.slice(0, colon);
    const encoded = entry.slice(colon + 1).trim();
    if (!KEY_ID.test(id)) throw new Error(`${which}: the key id must be 1-32 letters, digits, "_" or "-"`);
    if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(encoded)) throw new Error(`${which} (key id ${id}): the key must be base64`);
    const key = Buffer.from(encoded.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (key.length !== 32) throw new Error(`${which} (key id ${id}): the key must be 32 bytes, base64-encoded (it is ${key.length})`);
    if (keys.some((k) => k.id === id)) throw new Error(`${which}: the key id ${id} is used twice`);
    keys.push({ id, key });
  });
  return keys;
}

/** A new key entry for SECRETS_KEYS (`<id>:<base64 of 32 random bytes>`). */
export const newSecretKeyEntry = (id: string): string => `${id}:${randomBytes(32).toString('base64')}`;

const additionalData = (keyId: string, purpose: string): Buffer => Buffer.from(`${SEALED_PREFIX}${keyId}|${purpose}`, 'utf8');

export class SecretBox {
  // Private fields: a config object logged or inspected never shows the keys.
  readonly #keys: readonly SecretKey[];
  readonly #byId: Map<string, Buffer>;

  constructor(keys: readonly SecretKey[]) {
    if (keys.length === 0) throw new Error('a SecretBox needs at least one key');
    this.#keys = keys.map((k) => ({ id: k.id, key: Buffer.from(k.key) }));
    this.#byId = new Map(this.#keys.map((k) => [k.id, k.key]));
  }

  /** The id of the key that seals. */
  get currentKeyId(): string {
    return this.#keys[0].id;
  }

  /** The ids of the keys, the current one first (never the keys). */
  get keyIds(): string[] {
    return this.#keys.map((k) => k.id);
  }

  toJSON(): string {
    return `SecretBox(${this.keyIds.join(',')})`;
  }

  /** Whether a stored value is sealed (with any key), rather than a value kept in clear. */
  static isSealed(stored: string): boolean {
    return stored.startsWith(SEALED_PREFIX);
  }

  /** The key id a sealed value names (null for a value in clear). */
  static keyIdOf(stored: string): string | null {
    if (!SecretBox.isSealed(stored)) return null;
    return stored.slice(SEALED_PREFIX.length).split(':')[0];
  }

  /** Whether the value is sealed with the current key: nothing to re-encrypt. */
  isCurrent(stored: string): boolean {
    return SecretBox.keyIdOf(stored) === this.currentKeyId;
  }

  seal(clear: string, purpose: string): string {
    const { id, key } = this.#keys[0];
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(additionalData(id, purpose));
    const ciphertext = Buffer.concat([cipher.update(clear, 'utf8'), cipher.final()]);
    return `${SEALED_PREFIX}${id}:${iv.toString('base64url')}:${cipher.getAuthTag().toString('base64url')}:${ciphertext.toString('base64url')}`;
  }

  /** The clear value; throws SecretBoxError for a value in clear, an unknown key, or one that does not authenticate. */
  open(stored: string, purpose: string): string {
    if (!SecretBox.isSealed(stored)) throw new SecretBoxError(`the stored ${purpose} is not encrypted`);
    const parts = stored.slice(SEALED_PREFIX.length).split(':');
    if (parts.length !== 4 || !parts.slice(1).every((p) => B64URL.test(p))) throw new SecretBoxError(`the stored ${purpose} is malformed`);
    const [keyId, iv, tag, ciphertext] = parts;
    const key = this.#byId.get(keyId);
    if (!key) throw new SecretBoxError(`the stored ${purpose} is encrypted with key ${keyId}, which SECRETS_KEYS does not hold`);
    const ivBytes = Buffer.from(iv, 'base64url');
    const tagBytes = Buffer.from(tag, 'base64url');
    if (ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES) throw new SecretBoxError(`the stored ${purpose} is malformed`);
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, ivBytes, { authTagLength: TAG_BYTES });
      decipher.setAAD(additionalData(keyId, purpose));
      decipher.setAuthTag(tagBytes);
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretBoxError(`the stored ${purpose} does not authenticate with key ${keyId} (altered, or sealed for another purpose)`);
    }
  }

  /**
   * The clear value of what a service reads: a sealed value opened, one in clear (written
   * by a previous version during a rolling update, not yet sealed on start or by
   * `cli secrets rotate-key`) as it is.
   */
  reveal(stored: string, purpose: string): string {
    return SecretBox.isSealed(stored) ? this.open(stored, purpose) : stored;
  }

  /**
   * The value sealed with the current key: a value in clear sealed, one sealed with an older
   * key opened and sealed again, one already current returned as is (null: nothing to do).
   */
  reseal(stored: string, purpose: string): string | null {
    if (this.isCurrent(stored)) return null;
    return this.seal(SecretBox.isSealed(stored) ? this.open(stored, purpose) : stored, purpose);
  }
}

/** The purposes (additional data) of the secrets this service keeps: one place, so writer and reader agree. */
export const secretPurpose = {
  /** A REST registration's own signing secret. */
  webhook: (webhookId: number): string => `webhooks.secret:${webhookId}`,
  /** An add-on's OAuth client secret (also the signing secret of the add-on's webhooks, which carry a copy). */
  oauthClient: (clientId: string): string => `oauth_clients.secret:${clientId}`,
  /** The signing secret of a registration: the add-on's client's when it has one, else its own. */
  signing: (r: { id: number; oauthClientId: string | null }): string =>
    r.oauthClientId !== null ? secretPurpose.oauthClient(r.oauthClientId) : secretPurpose.webhook(r.id),
  /**
   * A webhook's or bridge's URL: a platform's incoming-webhook URL is its credential (Slack's
   * `/services/T/B/SECRET`, Discord's `/api/webhooks/ID/TOKEN`), and an add-on's may carry
   * its own token in the query. Also the URL of a create's, put's or enable's stored reply.
   */
  webhookUrl: (webhookId: number): string => `webhooks.url:${webhookId}`,
  /** A bridge's credential for its platform (Matrix: the bot's access token). */
  bridgeToken: (bridgeId: number): string => `webhooks.bridge_token:${bridgeId}`,
  /** A bridge's inbound verification: the platform's token, or Teams' HMAC security token. */
  bridgeInbound: (bridgeId: number, what: 'token' | 'hmac_secret'): string => `webhooks.bridge_inbound_${what}:${bridgeId}`,
  /** A bridge's inbound URL key, kept sealed in a command's stored reply only (the row keeps its hash). */
  bridgeInboundKey: (bridgeId: number): string => `applied_commands.bridge_inbound_key:${bridgeId}`,
};

/** A webhook's (or bridge's) URL as its row keeps it: sealed for the row (secretPurpose.webhookUrl). */
export const sealedWebhookUrl = (box: SecretBox, webhookId: number, url: string): string => box.seal(url, secretPurpose.webhookUrl(webhookId));

/**
 * A webhook's (or bridge's) URL as stored, opened (secretPurpose.webhookUrl); one kept in
 * clear (not sealed yet) as it is; one no key opens as stored, sealed: it shows nothing of
 * the URL, and no dispatcher posts to it (it is no URL: see isUnopenedUrl).
 */
export function openWebhookUrl(box: SecretBox, stored: string, webhookId: number): string {
  try {
    return box.reveal(stored, secretPurpose.webhookUrl(webhookId));
  } catch (err) {
    if (err instanceof SecretBoxError) return stored;
    throw err;
  }
}

/** Whether a URL openWebhookUrl answered is still sealed: no key of SECRETS_KEYS opens it. */
export const isUnopenedUrl = (url: string): boolean => SecretBox.isSealed(url);

import { createHash, randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const API_TOKEN_LENGTH = 40;

/** A new API token: 40 characters of letters and digits (about 238 bits of entropy). */
export function generateApiToken(): string {
  const bytes = randomBytes(API_TOKEN_LENGTH * 2);
  let out = '';
  // Rejection sampling keeps every character equally likely (248 = 4 * 62).
  for (let i = 0; i < bytes.length && out.length < API_TOKEN_LENGTH; i++) {
    if (bytes[i] < 248) out += ALPHABET[bytes[i] % ALPHABET.length];
  }
  return out.length === API_TOKEN_LENGTH ? out : generateApiToken();
}

/**
 * What the database stores instead of the token. Tokens are long random strings, so a
 * fast hash is enough: there is nothing to brute-force that a slow hash would protect.
 */
export function hashApiToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

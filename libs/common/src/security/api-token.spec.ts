import { API_TOKEN_LENGTH, generateApiToken, hashApiToken } from './api-token';

describe('API tokens', () => {
  it('are 40 letters and digits and do not repeat', () => {
    const tokens = new Set(Array.from({ length: 500 }, () => generateApiToken()));
    expect(tokens.size).toBe(500);
    for (const token of tokens) expect(token).toMatch(new RegExp(`^[A-Za-z0-9]{${API_TOKEN_LENGTH}}$`));
  });

  it('hash to a stable SHA-256 hex digest that does not contain the token', () => {
    const hash = hashApiToken('abc');
    expect(hash).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashApiToken('abc')).toBe(hash);
    expect(hashApiToken('abd')).not.toBe(hash);
  });
});

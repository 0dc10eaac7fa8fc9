import { generatePassword, hashPassword, verifyPassword } from './passwords';

describe('passwords', () => {
  it('hash with a salt and verify only the right password', async () => {
    const a = await hashPassword('correct horse');
    const b = await hashPassword('correct horse');
    expect(a).not.toBe(b);
    expect(a).not.toContain('correct');
    await expect(verifyPassword('correct horse', a)).resolves.toBe(true);
    await expect(verifyPassword('wrong horse', a)).resolves.toBe(false);
    await expect(verifyPassword('x', 'garbage')).resolves.toBe(false);
  });

  it('generates 12-character passwords', () => {
    expect(generatePassword()).toMatch(/^[A-Za-z0-9]{12}$/);
  });
});

import { describeRef, parseUserRef, userRefSchema } from './refs';

describe('user references', () => {
  it('keeps v1 reading: @name stays an e-mail address unless mentions are asked for', () => {
    expect(parseUserRef('@ada')).toEqual({ email: '@ada' });
    expect(parseUserRef('12')).toEqual({ id: 12 });
  });

  it('reads @name as a mention name on v2 paths', () => {
    expect(parseUserRef('@ada', { mentions: true })).toEqual({ mention: 'ada' });
    expect(parseUserRef('12', { mentions: true })).toEqual({ id: 12 });
    expect(parseUserRef('ada@example.com', { mentions: true })).toEqual({ email: 'ada@example.com' });
    expect(parseUserRef('@', { mentions: true })).toEqual({ email: '@' });
  });

  it('describes a mention with its @ and accepts it in commands', () => {
    expect(describeRef({ mention: 'ada' })).toBe('@ada');
    expect(userRefSchema.safeParse({ mention: 'ada' }).success).toBe(true);
    expect(userRefSchema.safeParse({ mention: '' }).success).toBe(false);
  });
});

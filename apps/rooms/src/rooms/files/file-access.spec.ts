import type { Actor } from '@app/contracts';
import { mayReadFile } from './file-access';

describe('mayReadFile', () => {
  const priv = { id: 7, privacy: 'private' as const, name: 'Ops' };
  const pub = { id: 7, privacy: 'public' as const, name: 'Lobby' };
  const user: Actor = { tokenId: 1, label: 't', userId: 3 };
  const member = { isGroupAdmin: false, isMember: true, isOwner: false };
  const stranger = { isGroupAdmin: false, isMember: false, isOwner: false };
  const owner = { isGroupAdmin: false, isMember: false, isOwner: true };

  it('gives a public room\'s files to anyone, credentials or not', () => {
    expect(mayReadFile(undefined, pub, null)).toBe(true);
    expect(mayReadFile(user, pub, stranger)).toBe(true);
  });

  it('gives a private room\'s files to its members, its owner and group admins only', () => {
    expect(mayReadFile(user, priv, member)).toBe(true);
    expect(mayReadFile(user, priv, { isGroupAdmin: true, isMember: false, isOwner: false })).toBe(true);
    expect(mayReadFile(user, priv, owner)).toBe(true);
    expect(mayReadFile(user, priv, stranger)).toBe(false);
  });

  it('refuses a private room\'s files to nobody and to a token of another room', () => {
    expect(mayReadFile(undefined, priv, null)).toBe(false);
    expect(mayReadFile({ tokenId: 2, label: 'r', roomId: 8 }, priv, null)).toBe(false);
    expect(mayReadFile({ tokenId: 2, label: 'r', roomId: 7 }, priv, null)).toBe(true);
  });
});

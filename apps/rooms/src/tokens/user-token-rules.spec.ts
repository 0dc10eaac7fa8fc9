import { CommandFailure } from '@app/contracts';
import { checkNewUserToken } from './user-token-rules';

const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    return (err as CommandFailure).error;
  }
  throw new Error('not refused');
};

describe('checkNewUserToken', () => {
  it('gives a personal token the scopes asked, once each', () => {
    expect(checkNewUserToken({ kind: 'personal', scopes: ['send_message', 'view_room', 'send_message'] }, false)).toEqual(['send_message', 'view_room']);
  });

  it('refuses an unknown scope, or none, naming scopes', () => {
    expect(refusal(() => checkNewUserToken({ kind: 'personal', scopes: ['send_message', 'fly'] }, true)))
      .toMatchObject({ code: 'invalid', reason: 'rule', field: 'scopes', detail: { problem: expect.stringContaining('unknown scope "fly"') } });
    expect(refusal(() => checkNewUserToken({ kind: 'personal', scopes: [] }, true))).toMatchObject({ code: 'invalid', field: 'scopes' });
  });

  it('gives admin_group to group admins only', () => {
    expect(checkNewUserToken({ kind: 'personal', scopes: ['admin_group'] }, true)).toEqual(['admin_group']);
    expect(refusal(() => checkNewUserToken({ kind: 'personal', scopes: ['view_group', 'admin_group'] }, false)))
      .toMatchObject({ code: 'forbidden', reason: 'not_allowed', field: 'scopes' });
  });

  it('makes v1 admin and notification tokens for group admins only, without scopes', () => {
    expect(checkNewUserToken({ kind: 'admin', scopes: [] }, true)).toEqual([]);
    expect(checkNewUserToken({ kind: 'notification', scopes: [] }, true)).toEqual([]);
    expect(refusal(() => checkNewUserToken({ kind: 'admin', scopes: [] }, false))).toMatchObject({ code: 'forbidden', field: 'kind' });
    expect(refusal(() => checkNewUserToken({ kind: 'notification', scopes: ['send_message'] }, true))).toMatchObject({ code: 'invalid', field: 'scopes' });
  });
});

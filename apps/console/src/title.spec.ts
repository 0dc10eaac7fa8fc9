import { titleOf } from './title';

describe('the tab title', () => {
  it('names the page, then the app', () => expect(titleOf('Ops', 0)).toBe('Ops – Chat'));
  it('leads with the unread count when there is one', () => expect(titleOf('Ops', 3)).toBe('(3) Ops – Chat'));
  it('is the app alone before a page names itself', () => expect(titleOf('', 2)).toBe('(2) Chat'));
});

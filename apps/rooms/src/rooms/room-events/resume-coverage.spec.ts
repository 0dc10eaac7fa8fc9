import { isCovered } from './resume-coverage';

describe('isCovered: may a live connection resume after this sequence without a gap', () => {
  it('is when the oldest kept event is the next one or older', () => {
    expect(isCovered(4, 9, 5)).toBe(true);
    expect(isCovered(4, 9, 1)).toBe(true);
    expect(isCovered(0, 3, 1)).toBe(true);
  });

  it('is not when the events right after it were pruned', () => {
    expect(isCovered(4, 9, 6)).toBe(false);
    expect(isCovered(0, 3, 2)).toBe(false);
  });

  it('is not when every event after it was pruned', () => {
    expect(isCovered(4, 9, null)).toBe(false);
  });

  it('is when nothing came after it, however old it is (the log may be empty)', () => {
    expect(isCovered(9, 9, null)).toBe(true);
    expect(isCovered(0, 0, null)).toBe(true);
  });

  it('leaves an id past the last sequence to the caller (the log may lag the live feed)', () => {
    expect(isCovered(12, 9, 3)).toBe(true);
  });
});

import { idSchema, isId, MAX_ID, pathId, startIndexSchema } from './ids';

describe('ids', () => {
  it('MAX_ID is the largest Postgres integer', () => {
    expect(MAX_ID).toBe(2 ** 31 - 1);
  });

  // [segment, id]: one rule for every path (leading zeros read, up to MAX_ID).
  const table: Array<[string, number | null]> = [
    ['1', 1],
    ['42', 42],
    ['999999999', 999_999_999],
    ['0', null],
    ['00', null],
    ['000000000', null],
    ['01', 1],
    ['007', 7],
    ['000000001', 1],
    ['0000000001', 1],
    ['1000000000', 1_000_000_000],
    ['2147483647', 2_147_483_647],
    ['2147483648', null],
    ['9999999999', null],
    ['12345678901', null],
    ['1e3', null],
    ['0x10', null],
    [' 1', null],
    ['1 ', null],
    ['+1', null],
    ['-1', null],
    ['1.0', null],
    ['1.5', null],
    ['', null],
    ['Ops', null],
    ['@ada', null],
    ['ada@example.com', null],
    ['١٢', null],
    ['１', null],
    ['1\n', null],
  ];

  it.each(table)('pathId(%j) is %p', (segment, expected) => {
    expect(pathId(segment)).toBe(expected);
  });


  it.each([
    [1, true], [MAX_ID, true], [0, false], [-1, false], [MAX_ID + 1, false], [1.5, false],
    [Number.NaN, false], [Infinity, false], ['1', false], [null, false], [undefined, false],
  ])('isId(%p) is %p, as idSchema decides', (v, expected) => {
    expect(isId(v)).toBe(expected);
    expect(idSchema.safeParse(v).success).toBe(expected);
  });

  it.each([
    [0, true], [1, true], [MAX_ID, true], [-1, false], [MAX_ID + 1, false], [0.5, false], ['0', false],
  ])('startIndexSchema takes %p: %p', (v, expected) => {
    expect(startIndexSchema.safeParse(v).success).toBe(expected);
  });
});

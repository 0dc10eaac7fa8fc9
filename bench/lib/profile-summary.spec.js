const { summarise } = require('./profile-summary');

// root -> handle (our code) -> parse (a package) -> handle again (recursion); idle beside.
const frame = (functionName, url, lineNumber = 9) => ({ functionName, url, lineNumber, columnNumber: 0, scriptId: '1' });
const profile = {
  nodes: [
    { id: 1, callFrame: frame('(root)', ''), children: [2, 5] },
    { id: 2, callFrame: frame('handle', 'file:///app/dist/apps/gateway/src/v1.js'), children: [3] },
    { id: 3, callFrame: frame('parse', 'file:///app/node_modules/qs/lib/parse.js'), children: [4] },
    { id: 4, callFrame: frame('handle', 'file:///app/dist/apps/gateway/src/v1.js'), children: [] },
    { id: 5, callFrame: frame('(idle)', ''), children: [] },
  ],
  // 10 ms in handle itself, 20 in parse, 10 in the recursive handle, 60 idle.
  samples: [2, 3, 3, 4, 5, 5, 5, 5, 5, 5],
  timeDeltas: Array(10).fill(10_000),
};

describe('profile-summary', () => {
  const text = summarise(profile, 10);

  it('gives self time by module and by function, idle included', () => {
    expect(text).toContain('total sampled: 0.10 s');
    expect(text).toMatch(/60\.0% {2}\(idle\) \(native\):10/);
    expect(text).toMatch(/20\.0% {2}handle dist\/apps\/gateway\/src\/v1\.js:10/);
    expect(text).toMatch(/20\.0% {2}qs\n/);
  });

  it('gives inclusive time as a share of the busy time, each function once per sample', () => {
    const inclusive = text.slice(text.indexOf('by function (inclusive'));
    expect(inclusive).toContain('share of 0.04 s busy');
    // handle is on every busy sample (once, despite the recursion); parse on three of four.
    expect(inclusive).toMatch(/100\.0% {2}handle dist\/apps\/gateway\/src\/v1\.js:10/);
    expect(inclusive).toMatch(/ 75\.0% {2}parse qs:10/);
    expect(inclusive).not.toContain('(root)');
    expect(inclusive).not.toContain('(idle)');
  });
});

import { NOTIFICATION_COLORS } from '@app/contracts';
import { resolveColor } from './color';

describe('resolveColor', () => {
  it('keeps a concrete colour and resolves random to one of the five', () => {
    expect(resolveColor('green')).toBe('green');
    expect(resolveColor('random', () => 0)).toBe('yellow');
    expect(resolveColor('random', () => 0.9999)).toBe('gray');
    for (let i = 0; i < 20; i++) expect(NOTIFICATION_COLORS).toContain(resolveColor('random'));
  });
});

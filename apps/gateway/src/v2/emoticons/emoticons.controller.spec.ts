import { emoticonOfImageFile } from './emoticons.controller';

describe('emoticonOfImageFile', () => {
  it('finds an image by shortcut, whatever its case', () => {
    expect(emoticonOfImageFile('allthethings.svg')?.id).toBe(1);
    expect(emoticonOfImageFile('AwYeah.SVG')?.shortcut).toBe('awyeah');
  });

  it('knows no image by id, without the extension or for unknown names', () => {
    for (const f of ['1.svg', 'allthethings', 'allthethings.png', 'nosuch.svg', '(allthethings).svg', '.svg']) {
      expect(emoticonOfImageFile(f)).toBeUndefined();
    }
  });
});

import { DataSource } from 'typeorm';
import type { StoredFile } from '../rooms/message.repository';
import { FileCommands } from './file-commands';

const idOf = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const fileOf = (n: number): StoredFile => ({ name: `файл ${n}.txt`, size: 1, url: `http://h/files/00/${idOf(n)}/____${n}.txt` });

describe('FileCommands.restoreNames', () => {
  it('walks every page of file messages, naming each file and counting what it found', async () => {
    // 1,201 file messages: three pages, the last one short.
    const rows = Array.from({ length: 1201 }, (_, i) => ({ id: idOf(i), file: fileOf(i) }));
    rows[7].file = { ...rows[7].file, url: 'http://elsewhere.example/x.txt' };
    rows[8].file = { ...rows[8].file, thumb_url: `http://h/files/00/${idOf(8)}-thumb/____8.png` };
    const afters: Array<string | null> = [];
    const messages = {
      sharedFilesAfter: async (_m: unknown, after: string | null, limit: number) => {
        afters.push(after);
        return rows.filter((r) => after === null || r.id > after).slice(0, limit);
      },
    };
    const named = new Map<string, string>();
    const storage = {
      nameIfUnnamed: async (key: string, fileName: string) => {
        if (key.includes('000000000009')) return 'absent' as const;
        if (named.has(key)) return 'kept' as const;
        named.set(key, fileName);
        return 'named' as const;
      },
    };
    const commands = new FileCommands({ manager: {} } as DataSource, storage, messages);

    expect(await commands.restoreNames()).toEqual({ named: 1200, kept: 0, absent: 1, skipped: 1 });
    expect(afters).toEqual([null, idOf(499), idOf(999)]);
    expect(named.get(`00/${idOf(1200)}/____1200.txt`)).toBe('файл 1200.txt');
    expect(named.get(`00/${idOf(8)}-thumb/____8.png`)).toBe('файл 8.png');
    // Again: every file has its name.
    expect(await commands.restoreNames()).toEqual({ named: 0, kept: 1200, absent: 1, skipped: 1 });
  });
});

import * as fs from 'node:fs';
import * as path from 'node:path';
import type { NotificationColor } from '@app/contracts';
import type { Block, BridgeMessage, Inline, PlatformFormat, PlatformPost } from '../types';

/**
 * The messages every platform's golden payloads are rendered from (one per event kind and
 * formatting case of issue 35 §5), built as toBridgeMessage would hand them over: HipChat
 * html already parsed, its entities decoded once. Test-only; no I/O but the golden files.
 */

const text = (t: string): Inline => ({ t: 'text', text: t });
const b = (...children: Inline[]): Inline => ({ t: 'bold', children });
const i = (...children: Inline[]): Inline => ({ t: 'italic', children });
const a = (href: string, ...children: Inline[]): Inline => ({ t: 'link', href, children });
const p = (...children: Inline[]): Block => ({ t: 'paragraph', children });

const base = (over: Partial<BridgeMessage>): BridgeMessage => ({
  event: 'room_message',
  deliveryId: '7f9c2b1e-0000-4000-8000-000000000001',
  roomName: 'Engineering',
  sender: 'Ada Lovelace',
  notice: false,
  body: [],
  color: null,
  card: null,
  file: null,
  ...over,
});

const notification = (over: Partial<BridgeMessage>): BridgeMessage =>
  base({ event: 'room_notification', sender: 'Build bot', notice: true, color: 'yellow', ...over });

/** About 10,000 characters of prose in lines, with links, as a long HipChat text message. */
export function longText(): string {
  const words = ['deploy', 'the', 'service', 'after', 'review,', 'then', 'check', 'https://example.com/runbook?step=4', 'and', 'report', 'back.'];
  const lines: string[] = [];
  let n = 0;
  let total = 0;
  while (total < 10_000) {
    const line = Array.from({ length: 12 }, () => words[n++ % words.length]).join(' ');
    lines.push(line);
    total += line.length + 1;
  }
  return lines.join('\n').slice(0, 10_000).trimEnd();
}

const longCjk = (): string => '本日のデプロイは正常に完了しました。'.repeat(556).slice(0, 10_000);

const colorCase = (color: NotificationColor): BridgeMessage =>
  notification({ color, body: [p(text(`Build #42 is ${color}`))], deliveryId: `7f9c2b1e-0000-4000-8000-color-${color}` });

export const CASES: Readonly<Record<string, BridgeMessage[]>> = {
  'message-text': [base({ body: [p(text('@GraceHopper have a look (allthethings) https://example.com/a_b?x=1&y=2'))] })],
  'notification-html': [
    notification({ color: 'green', body: [p(b(text('Build #42')), text(' passed on '), a('https://ci.example.com/42', text('main')), { t: 'br' }, text('All '), i(text('1,024')), text(' tests green'))] }),
  ],
  'notification-text': [notification({ body: [p(text('Deploy <done> & verified *now* _really_ [x](y)\n- not a list'))] })],
  'topic-change': [base({ event: 'room_topic_change', sender: null, body: [p(text('Ada Lovelace set the topic: Release 2.0 — <ship it> & celebrate'))] })],
  'file-image': [
    base({
      event: 'room_file_upload',
      body: [p(text('Ada Lovelace shared a file'))],
      file: { name: 'diagram.png', size: 48_213, url: 'https://files.example.com/r/1/diagram.png', imageUrl: 'https://files.example.com/r/1/diagram.png' },
    }),
  ],
  file: [
    base({
      event: 'room_file_upload',
      body: [p(text('Ada Lovelace shared a file'))],
      file: { name: 'minutes & notes.pdf', size: 2_516_582, url: 'https://files.example.com/r/1/minutes%20%26%20notes.pdf', imageUrl: null },
    }),
  ],
  enter: [base({ event: 'room_enter', sender: null, body: [p(text('Grace Hopper joined the room'))] })],
  exit: [base({ event: 'room_exit', sender: null, body: [p(text('Grace Hopper left the room'))] })],
  'nested-html': [
    notification({
      body: [
        p(a('https://example.com/pr/7', i(text('see '), b(text('PR #7'))), text(' now')), text(' — '), b(i(text('bold italic')), text(' '))),
        { t: 'list', ordered: false, items: [[p(text('outer')), { t: 'list', ordered: true, items: [[p(b(text('inner one')))], [p(text('inner two'))]] }], [p(text('second'))]] },
      ],
    }),
  ],
  entities: [notification({ body: [p(text('Tom & Jerry <3 "quotes" \'apos\' © &amp; stays literal'))] })],
  links: [
    notification({
      body: [
        p(a('https://example.com/a b(c)', text('spaces and parens')), text(', '), a('https://example.com/', text('https://example.com/')), text(', '), a('javascript:alert(1)', text('not a link'))),
        p({ t: 'image', src: 'https://example.com/logo.png', alt: 'logo' }, text(' '), { t: 'image', src: 'mxc://example.org/abc', alt: 'uploaded' }),
      ],
    }),
  ],
  code: [
    notification({
      body: [p(text('Run '), { t: 'code', text: 'npm run build -- --watch' }, text(' then:')), { t: 'pre', text: 'if (a_b && *ptr) {\n    return "<ok>";\n}\n\n# done' }],
    }),
  ],
  lists: [
    base({
      body: [
        { t: 'list', ordered: true, items: [[p(text('first'))], [p(text('second '), b(text('bold')))], [p(text('third'))]] },
        { t: 'list', ordered: false, items: [[p(text('apples'))], [p(text('pears'))]] },
      ],
    }),
  ],
  tables: [
    notification({
      body: [
        {
          t: 'table',
          header: true,
          rows: [
            [[text('Service')], [text('Status')], [text('Link')]],
            [[text('api')], [b(text('up'))], [a('https://status.example.com/api', text('details'))]],
            [[text('worker & queue')], [text('down')], []],
          ],
        },
      ],
    }),
  ],
  mentions: [base({ body: [p(text('@all @here @GraceHopper please look <users/all> <!channel>'))] })],
  emoticons: [base({ body: [p(text('(allthethings) (yey) (successful) :) :D'))] })],
  'color-yellow': [colorCase('yellow')],
  'color-green': [colorCase('green')],
  'color-red': [colorCase('red')],
  'color-purple': [colorCase('purple')],
  'color-gray': [colorCase('gray')],
  card: [
    notification({
      sender: 'Jira',
      color: 'red',
      body: [p(text('PROJ-17: Login fails on Safari (fallback)'))],
      card: {
        style: 'application',
        title: 'PROJ-17: Login fails on Safari',
        description: [p(text('Users on '), b(text('Safari 17')), text(' see a blank page & <nothing> else.'))],
        url: 'https://jira.example.com/browse/PROJ-17',
        thumbnail: 'https://jira.example.com/thumb/17.png',
        icon: 'https://jira.example.com/icon.png',
        activity: 'Grace Hopper created an issue',
        attributes: [
          { label: 'Priority', value: 'Critical', url: null },
          { label: 'Assignee', value: 'Ada Lovelace', url: 'https://jira.example.com/people/ada' },
        ],
      },
    }),
  ],
  'long-10000': [base({ body: [p(text(longText()))] })],
  'long-cjk': [base({ body: [p(text(longCjk()))] })],
  coalesced: [
    notification({ deliveryId: '7f9c2b1e-0000-4000-8000-00000000000a', color: 'red', body: [p(text('Build #43 failed'))] }),
    notification({ deliveryId: '7f9c2b1e-0000-4000-8000-00000000000b', color: 'green', body: [p(text('Build #44 passed'))] }),
    base({ deliveryId: '7f9c2b1e-0000-4000-8000-00000000000c', body: [p(text('Thanks, all green again'))] }),
  ],
};

export const MATRIX_ROOM = '!abcDEF:example.org';

/**
 * Renders every case and compares with `__golden__/<platform>/<case>.json`; with
 * UPDATE_GOLDEN=1 it writes them instead (then read each one before committing it).
 */
export function goldenCheck(platform: string, format: PlatformFormat): Array<[string, PlatformPost[], unknown]> {
  const dir = path.join(__dirname, platform);
  return Object.entries(CASES).map(([name, messages]) => {
    const posts = format(messages, { kind: platform as never, matrixRoomId: MATRIX_ROOM });
    const file = path.join(dir, `${name}.json`);
    if (process.env.UPDATE_GOLDEN === '1') {
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(file, `${JSON.stringify(posts, null, 2)}\n`);
    }
    const golden: unknown = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null;
    return [name, posts, golden];
  });
}

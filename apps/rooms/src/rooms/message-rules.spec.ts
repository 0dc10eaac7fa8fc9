import { CommandFailure } from '@app/contracts';
import { extractMentionNames, messageBody, sanitizeMessageHtml as clean } from './message-rules';

/** The command error `fn` throws. */
function refusal(fn: () => unknown) {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(CommandFailure);
    return (err as CommandFailure).error;
  }
  throw new Error('not refused');
}

describe('message body', () => {
  it('keeps text verbatim and sanitizes html', () => {
    expect(messageBody('<b>not html</b> & stays', 'text')).toBe('<b>not html</b> & stays');
    expect(messageBody('<b onclick="x()">bold</b><script>x()</script>', 'html')).toBe('<b>bold</b>');
  });

  it('refuses a blank message as blank, in either format: nothing was removed', () => {
    for (const format of ['text', 'html'] as const) {
      for (const blank of ['', '   ', ' \t\n ']) {
        expect(refusal(() => messageBody(blank, format))).toEqual({ code: 'invalid', reason: 'rule', field: 'message', detail: { problem: 'must not be blank' } });
      }
    }
  });

  it('refuses html that is blank once disallowed HTML is removed, saying so', () => {
    for (const html of ['<script>alert(1)</script>', ' <div> </div> ']) {
      expect(refusal(() => messageBody(html, 'html'))).toEqual({ code: 'invalid', reason: 'message_empty_after_sanitizing', field: 'message' });
    }
    expect(messageBody('<script>alert(1)</script>', 'text')).toBe('<script>alert(1)</script>');
  });
});

describe('message HTML sanitizer', () => {
  it('keeps the allowed basic tags', () => {
    const html = '<a href="https://example.com/x" title="t">link</a> <b>b</b> <i>i</i> <strong>s</strong> <em>e</em>' +
      '<br /><img src="https://example.com/p.png" alt="p" /><pre>pre</pre><code>code</code>' +
      '<ul><li>u</li></ul><ol><li>o</li></ol>' +
      '<table><thead><tr><th>h</th></tr></thead><tbody><tr><td colspan="2">d</td></tr></tbody></table>';
    expect(clean(html)).toBe(html);
  });

  it('removes script, style and iframe elements with their content', () => {
    expect(clean('before<script>alert("x")</script>after')).toBe('beforeafter');
    expect(clean('<style>body { display: none }</style>text')).toBe('text');
    expect(clean('<iframe src="https://evil.example">inside</iframe>ok')).toBe('ok');
    expect(clean('<SCRIPT type="text/javascript">x()</SCRIPT>ok')).toBe('ok');
  });

  it('removes other tags but keeps their text', () => {
    expect(clean('<div><span>kept</span></div>')).toBe('kept');
    expect(clean('<font color="red">red</font>')).toBe('red');
  });

  it('removes event handler and style attributes', () => {
    expect(clean('<b onclick="steal()" style="color:red">x</b>')).toBe('<b>x</b>');
    expect(clean('<img src="https://example.com/a.png" onerror="steal()" />')).toBe('<img src="https://example.com/a.png" />');
    expect(clean('<a href="https://example.com" onmouseover="x()">l</a>')).toBe('<a href="https://example.com">l</a>');
  });

  it('removes javascript: and other unsafe URLs', () => {
    for (const href of ['javascript:alert(1)', 'JavaScript:alert(1)', ' javascript:alert(1)', 'java&#x09;script:alert(1)', 'vbscript:x', 'data:text/html,<script>x</script>']) {
      const out = clean(`<a href="${href}">x</a>`);
      expect(out).toBe('<a>x</a>');
    }
    expect(clean('<img src="javascript:alert(1)" />')).toBe('<img />');
    expect(clean('<img src="data:image/png;base64,AAAA" />')).toBe('<img />');
  });

  it('keeps http, https and mailto links', () => {
    expect(clean('<a href="http://example.com">h</a>')).toBe('<a href="http://example.com">h</a>');
    expect(clean('<a href="mailto:jo@example.com">m</a>')).toBe('<a href="mailto:jo@example.com">m</a>');
  });

  it('escapes bare < and & in text', () => {
    expect(clean('1 < 2 & 3')).toBe('1 &lt; 2 &amp; 3');
    expect(clean('&amp; stays')).toBe('&amp; stays');
  });

  it('leaves plain text alone', () => {
    expect(clean('Build #42 passed')).toBe('Build #42 passed');
  });
});

describe('extractMentionNames', () => {
  it('finds @names once each, ignoring e-mail addresses and trailing punctuation', () => {
    expect(extractMentionNames('@Ada ping @bob. and @ada, mail x@y.com (@carol-1)')).toEqual(['ada', 'bob', 'carol-1']);
    expect(extractMentionNames('no mentions here')).toEqual([]);
  });
});

import { createLogger } from '@app/common';
import { WebhookRegistration } from '@app/contracts';
import { Registrations } from './registrations';

const registration = (id: number, over: Partial<WebhookRegistration> = {}): WebhookRegistration => ({
  id, roomId: 3, event: 'room_message', url: 'https://receiver.example/hook', pattern: null, name: '', authentication: 'none', delivery: 'concurrent',
  key: null, installationId: null, oauthClientId: null, created: '2026-01-01T00:00:00Z', secret: 'secret', userId: 5, ...over,
});
const logger = createLogger('test', 'silent');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Waits for what the test expects (a busy machine runs timers late), failing after 5 s. */
async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the expected state');
    await sleep(5);
  }
}

/** A source whose snapshots the test sets, counting the loads. */
function source(initial: WebhookRegistration[] = []) {
  const s = {
    snapshot: initial,
    version: 1,
    loads: 0,
    fail: 0,
    load: async () => {
      s.loads++;
      await sleep(5);
      if (s.fail > 0) {
        s.fail--;
        throw new Error('rooms service unavailable');
      }
      return { registrations: s.snapshot, version: s.version };
    },
  };
  return s;
}

describe('Registrations', () => {
  let regs: Registrations | undefined;
  afterEach(() => regs?.stop());

  it('loads at start, retrying until the rooms service answers', async () => {
    const src = source([registration(1), registration(2, { roomId: null, installationId: 1 })]);
    src.fail = 2;
    regs = new Registrations(src.load, logger, { retryMs: 10 });
    expect(regs.loaded).toBe(false);
    await regs.loadFirst();
    expect(src.loads).toBe(3);
    expect(regs.loaded).toBe(true);
    expect(regs.forEvent(3, 'room_message').map((r) => r.id)).toEqual([1, 2]);
    expect(regs.forEvent(4, 'room_message').map((r) => r.id)).toEqual([2]);
    expect(regs.forEvent(null, 'room_message').map((r) => r.id)).toEqual([2]);
    expect(regs.get(1)?.id).toBe(1);
    expect(regs.get(9)).toBeUndefined();
  });

  it('waits for the source to be served before the first load', async () => {
    const src = source([registration(1)]);
    let polls = 0;
    regs = new Registrations(src.load, logger, { sourceReady: async () => ++polls >= 3 });
    await regs.loadFirst();
    expect(polls).toBe(3);
    expect(src.loads).toBe(1);
  });

  it('reloads once for a burst of change notices', async () => {
    const src = source([registration(1)]);
    regs = new Registrations(src.load, logger, { debounceMs: 20 });
    await regs.loadFirst();
    src.snapshot = [registration(1), registration(2)];
    for (let i = 0; i < 10; i++) regs.changed();
    await until(() => regs!.get(2) !== undefined);
    expect(src.loads).toBe(2);
    expect(regs.get(2)).toBeDefined();
  });

  it('a notice during a load makes one more load after it, and a failed reload is retried', async () => {
    const src = source([registration(1)]);
    regs = new Registrations(src.load, logger, { debounceMs: 1, retryMs: 10 });
    const first = regs.reload();
    const second = regs.reload();
    src.snapshot = [registration(3)];
    await Promise.all([first, second]);
    expect(src.loads).toBe(2);
    expect(regs.get(3)).toBeDefined();

    src.fail = 1;
    src.snapshot = [registration(4)];
    regs.changed();
    await until(() => regs!.get(4) !== undefined);
    expect(src.loads).toBe(4);
    expect(regs.get(4)).toBeDefined();
  });

  it('reloads for a job newer than its snapshot, and only then', async () => {
    const src = source([registration(1)]);
    regs = new Registrations(src.load, logger);
    const before = Date.now();
    await regs.loadFirst();
    await regs.freshSince(before - 1_000);
    expect(src.loads).toBe(1);
    src.snapshot = [registration(1), registration(2)];
    await regs.freshSince(Date.now() + 1);
    expect(src.loads).toBe(2);
    expect(regs.get(2)).toBeDefined();
  });

  it('reloads for an event stamped with a newer registrations version, and only then', async () => {
    const src = source([registration(1)]);
    regs = new Registrations(src.load, logger);
    await regs.loadFirst();
    expect(regs.version).toBe(1);
    expect(await regs.upTo(1)).toBe(true);
    expect(src.loads).toBe(1);
    src.snapshot = [registration(1), registration(2)];
    src.version = 2;
    expect(await regs.upTo(2)).toBe(true);
    expect(src.loads).toBe(2);
    expect(regs.version).toBe(2);
    expect(regs.forEvent(3, 'room_message').map((r) => r.id)).toEqual([1, 2]);
  });

  it('answers false when the index cannot be brought up to the stamp', async () => {
    const src = source([registration(1)]);
    regs = new Registrations(src.load, logger);
    await regs.loadFirst();
    src.fail = 1;
    expect(await regs.upTo(5)).toBe(false);
    // The source answers again, but with an older version than the stamp: still not up to date.
    expect(await regs.upTo(5)).toBe(false);
    src.version = 5;
    expect(await regs.upTo(5)).toBe(true);
  });

  it('serves concurrent stamps with the load that covers them', async () => {
    const src = source([registration(1)]);
    regs = new Registrations(src.load, logger);
    await regs.loadFirst();
    src.version = 3;
    src.snapshot = [registration(1), registration(3)];
    expect(await Promise.all([regs.upTo(2), regs.upTo(3), regs.upTo(3)])).toEqual([true, true, true]);
    expect(src.loads).toBeLessThanOrEqual(3);
    expect(regs.get(3)).toBeDefined();
  });
});

/**
 * A rooms service in miniature for loads of the changes: the test sets the forms in force
 * and those removed (with their versions); `changes` answers those written or removed
 * since, as ListRegistrationChangesV1 does, recording each `since` it was asked.
 */
function versionedSource(initial: WebhookRegistration[]) {
  const s = {
    ...source(initial),
    removed: [] as WebhookRegistration[],
    asked: [] as number[],
    failChanges: 0,
    changes: async (since: number) => {
      s.asked.push(since);
      await sleep(5);
      if (s.failChanges > 0) {
        s.failChanges--;
        throw new Error('unknown command webhooks.list-registration-changes.v1');
      }
      return {
        registrations: s.snapshot.filter((r) => (r.createdVersion ?? 0) > since),
        removed: s.removed.filter((r) => r.removedVersion! > since),
        version: s.version,
      };
    },
  };
  // The full load answers the removed forms too.
  s.load = async () => {
    s.loads++;
    await sleep(5);
    if (s.fail > 0) {
      s.fail--;
      throw new Error('rooms service unavailable');
    }
    return { registrations: s.snapshot, removed: s.removed, version: s.version };
  };
  return s;
}

describe('Registrations brought up to date with the changes', () => {
  let regs: Registrations | undefined;
  afterEach(() => regs?.stop());

  const one = registration(1, { url: 'https://receiver.example/one', createdVersion: 1 });

  it('loads everything first, then only the changes since its version', async () => {
    const src = versionedSource([one]);
    regs = new Registrations(src.load, logger, { changes: src.changes, debounceMs: 5 });
    await regs.loadFirst();
    expect([src.loads, src.asked]).toEqual([1, []]);

    // At 2: webhook 1 changed, webhook 2 registered.
    const oneChanged = registration(1, { url: 'https://receiver.example/one-b', createdVersion: 2 });
    src.snapshot = [oneChanged, registration(2, { createdVersion: 2 })];
    src.removed = [{ ...one, removedVersion: 2 }];
    src.version = 2;
    expect(await regs.upTo(2)).toBe(true);
    expect([src.loads, src.asked]).toEqual([1, [1]]);
    expect(regs.version).toBe(2);
    expect(regs.get(1)?.url).toBe('https://receiver.example/one-b');
    expect(regs.at(1, 1)?.url).toBe('https://receiver.example/one');
    expect(regs.size).toBe(2);

    // At 3: webhook 2 deleted; the notice brings the index up to date.
    src.snapshot = [oneChanged];
    src.removed = [...src.removed, { ...registration(2, { createdVersion: 2 }), removedVersion: 3 }];
    src.version = 3;
    regs.changed();
    await until(() => src.asked.length === 2 && regs!.get(2) === undefined);
    expect([src.loads, src.asked]).toEqual([1, [1, 2]]);
    expect(regs.get(2)).toBeUndefined();
    expect(regs.forEvent(3, 'room_message').map((r) => r.id)).toEqual([1]);
    expect(regs.forEvent(3, 'room_message', 2).map((r) => r.id)).toEqual([1, 2]);
    expect(regs.size).toBe(1);

    // A job newer than the index: asks for the changes (none).
    await regs.freshSince(Date.now() + 1);
    expect([src.loads, src.asked]).toEqual([1, [1, 2, 3]]);
    expect(regs.version).toBe(3);
  });

  it('applies nothing from changes whose version is not newer than its index', async () => {
    const src = versionedSource([one]);
    src.version = 5;
    let answer = { registrations: [registration(9, { createdVersion: 9 })], removed: [], version: 5 };
    regs = new Registrations(src.load, logger, { changes: async () => answer });
    await regs.loadFirst();
    await regs.reload();
    expect(regs.get(9)).toBeUndefined();
    answer = { ...answer, version: 4 };
    await regs.reload();
    expect(regs.get(9)).toBeUndefined();
    expect(regs.version).toBe(5);
    expect(await regs.upTo(5)).toBe(true);
  });

  it('loads everything again once the last full load is older than the bound, by itself', async () => {
    const src = versionedSource([one]);
    regs = new Registrations(src.load, logger, { changes: src.changes, fullLoadMaxAgeMs: 200 });
    await regs.loadFirst();
    await regs.reload();
    expect([src.loads, src.asked]).toEqual([1, [1]]);
    // No change meanwhile: a full load all the same (at 200 ms), then changes again.
    await until(() => src.loads === 2);
    await regs.reload();
    expect([src.loads, src.asked]).toEqual([2, [1, 1]]);
    // The next one would come at 400 ms.
    regs.stop();
    await sleep(200);
    expect(src.loads).toBe(2);
  });

  it('loads everything when a change comes after the bound and the timer\'s full load failed', async () => {
    const src = versionedSource([one]);
    regs = new Registrations(src.load, logger, { changes: src.changes, fullLoadMaxAgeMs: 50 });
    await regs.loadFirst();
    src.fail = 1;
    await until(() => src.loads === 2 && src.fail === 0);
    src.snapshot = [one, registration(2, { createdVersion: 2 })];
    src.version = 2;
    expect(await regs.upTo(2)).toBe(true);
    expect([src.loads, src.asked]).toEqual([3, []]);
    expect(regs.get(2)).toBeDefined();
  });

  it('loads everything after a failed load of the changes (a rooms service that does not serve them yet)', async () => {
    const src = versionedSource([one]);
    regs = new Registrations(src.load, logger, { changes: src.changes });
    await regs.loadFirst();
    src.snapshot = [one, registration(2, { createdVersion: 2 })];
    src.version = 2;
    src.failChanges = 1;
    expect(await regs.upTo(2)).toBe(false);
    expect(await regs.upTo(2)).toBe(true);
    expect([src.loads, src.asked]).toEqual([2, [1]]);
    // Then changes again.
    src.snapshot = [...src.snapshot, registration(3, { createdVersion: 3 })];
    src.version = 3;
    expect(await regs.upTo(3)).toBe(true);
    expect([src.loads, src.asked]).toEqual([2, [1, 2]]);
    expect(regs.size).toBe(3);
  });

  it('counts the disabled registrations of an index brought up to date', async () => {
    const src = versionedSource([one]);
    regs = new Registrations(src.load, logger, { changes: src.changes });
    await regs.loadFirst();
    expect(regs.disabled).toBe(0);
    src.snapshot = [registration(1, { createdVersion: 2, enabled: false })];
    src.removed = [{ ...one, removedVersion: 2 }];
    src.version = 2;
    await regs.upTo(2);
    expect(regs.disabled).toBe(1);
    expect(regs.size).toBe(1);
  });
});

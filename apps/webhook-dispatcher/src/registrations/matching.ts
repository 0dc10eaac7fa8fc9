import { CompiledPattern, compileWebhookPattern, eventsOf, isEnabled, WebhookEventName, WebhookRegistration } from '@app/contracts';

/**
 * How deep a chain of replies goes: a reply to an event is at depth 1, a reply to that reply
 * at 2, ... A notification at this depth is delivered to no webhook, so no two receivers can
 * keep answering each other.
 */
export const MAX_REPLY_DEPTH = 3;

/** The room a domain event is about (`payload.room.id`), or null. */
export function roomIdOf(payload: unknown): number | null {
  const id = (payload as { room?: { id?: unknown } } | null | undefined)?.room?.id;
  return typeof id === 'number' && Number.isSafeInteger(id) ? id : null;
}

/**
 * Which of the registrations of an event's room get it:
 * - only those registered for this event (a bridge: for each of its events), and enabled (a
 *   webhook disabled for failing gets nothing until it is enabled again);
 * - room_created reaches only group-wide ones (a room registration needs the room to exist);
 * - room_message: the registration's `pattern`, when it has one, must match the message text
 *   (patterns apply to room_message only, as the specification says: a bridge with a pattern
 *   still forwards its other events);
 * - room_message that came in through a bridge (`origin.bridgeId`) never goes back out
 *   through that bridge: the people there wrote it, and two bridged rooms would echo it; * - room_notification: a webhook's reply is never delivered back to the webhook that caused
 *   it, and one at MAX_REPLY_DEPTH is delivered to none.
 */
export function matchingRegistrations(o: {
  event: WebhookEventName;
  payload: any;
  registrations: readonly WebhookRegistration[];
  patterns: (source: string) => { test(t: string): boolean };
}): WebhookRegistration[] {
  const { event, payload } = o;
  const causedBy = event === 'room_notification' ? payload?.causedBy : undefined;
  if (causedBy && typeof causedBy.depth === 'number' && causedBy.depth >= MAX_REPLY_DEPTH) return [];
  const text: unknown = event === 'room_message' ? payload?.message?.message : undefined;
  const cameFrom: unknown = event === 'room_message' ? payload?.origin?.bridgeId : undefined;

  return o.registrations.filter((reg) => {
    if (!eventsOf(reg).includes(event) || !isEnabled(reg)) return false;
    if (event === 'room_created' && reg.roomId !== null) return false;
    if (causedBy && causedBy.webhookId === reg.id) return false;
    if (cameFrom !== undefined && cameFrom === reg.id) return false;
    if (event === 'room_message' && reg.pattern) {
      if (typeof text !== 'string') return false;
      try {
        return o.patterns(reg.pattern).test(text);
      } catch {
        // Checked when registered: a pattern the engine no longer takes matches nothing,
        // rather than stop this event's deliveries to every other webhook.
        return false;
      }
    }
    return true;
  });
}

/**
 * Whether a form of a registration is in force for an event stamped `version` (see
 * WebhookRegistration.createdVersion): an unstamped event sees only what is in force now.
 */
export function inForce(reg: WebhookRegistration, version: number | undefined): boolean {
  if (version === undefined) return reg.removedVersion == null;
  return (reg.createdVersion ?? 0) <= version && (reg.removedVersion == null || version < reg.removedVersion);
}

/** What changed since the snapshot an index holds (ListRegistrationChangesV1). */
export interface RegistrationChanges {
  /** Forms in force now, written since (registered, changed, disabled or enabled). */
  registrations: WebhookRegistration[];
  /** Forms removed or replaced since, each with its removedVersion. */
  removed?: WebhookRegistration[];
}

/**
 * The order of every list of the index: the order a full load gives, the forms in force
 * now by id, then the removed ones by id and the version that ended them (two reads, each
 * ORDER BY id, removed_version). created_version last: a transaction that changes a
 * webhook twice ends two forms at one version.
 */
export function compareForms(a: WebhookRegistration, b: WebhookRegistration): number {
  return Number(a.removedVersion != null) - Number(b.removedVersion != null) || a.id - b.id
    || (a.removedVersion ?? 0) - (b.removedVersion ?? 0) || (a.createdVersion ?? 0) - (b.createdVersion ?? 0);
}

/**
 * The dispatcher's index (room, event) → registrations, so that no event needs the
 * database: built from a snapshot of every registration, then brought up to date with the
 * changes since (apply). Each list keeps compareForms' order however the index was built,
 * so an event is matched alike after a full load and after changes.
 */
export class RegistrationIndex {
  private readonly byRoom = new Map<string, WebhookRegistration[]>();
  /** By event. */
  private readonly groupWide = new Map<string, WebhookRegistration[]>();
  /** Every form of each registration: the one in force now and those removed lately. */
  private readonly forms = new Map<number, WebhookRegistration[]>();
  private readonly current = new Map<number, WebhookRegistration>();
  /** Forms with versions. None (a source without versions): every form is in force for every stamp, no need to filter. */
  private versionedForms = 0;

  /** `regs` in force now; `removed`, forms removed or replaced lately (each with its removedVersion). */
  constructor(regs: WebhookRegistration[], removed: WebhookRegistration[] = []) {
    // One registration per id: a snapshot that lists one twice keeps the later.
    const unique = new Map<number, WebhookRegistration>();
    for (const reg of regs) unique.set(reg.id, reg);
    for (const reg of [...unique.values(), ...removed.filter((r) => r.removedVersion != null)]) this.insert(reg, false);
    // Sorted once, rather than each form put in its place.
    for (const list of [...this.byRoom.values(), ...this.groupWide.values()]) list.sort(compareForms);
  }

  /**
   * Brings the index from its snapshot's version to the version of `changes` (those since
   * it), as a full load at that version would have built it. Any change of a registration
   * ends the form in force at the snapshot: that form goes, and comes back among `removed`
   * with the version that ended it, for events caused before.
   */
  apply(changes: RegistrationChanges): void {
    const removed = (changes.removed ?? []).filter((r) => r.removedVersion != null);
    const written = new Map<number, WebhookRegistration>();
    for (const reg of changes.registrations) written.set(reg.id, reg);
    for (const id of [...written.keys(), ...removed.map((r) => r.id)]) {
      const ended = this.current.get(id);
      if (ended) this.delete(ended);
    }
    for (const reg of [...removed, ...written.values()]) this.insert(reg, true);
  }

  /**
   * The room's registrations for the event, then the group-wide ones (roomId null), as they
   * were in force at `version` (an event's stamp; absent: now).
   */
  forEvent(roomId: number, event: WebhookEventName, version?: number): WebhookRegistration[] {
    const room = this.byRoom.get(key(roomId, event)) ?? [];
    const group = this.groupWide.get(event) ?? [];
    const found = [...room, ...group];
    return this.versionedForms > 0 ? found.filter((r) => inForce(r, version)) : found;
  }

  /** The form of a registration in force at `version`. */
  at(webhookId: number, version: number): WebhookRegistration | undefined {
    return this.forms.get(webhookId)?.find((r) => inForce(r, version));
  }

  /** The form of a registration in force now. */
  get(webhookId: number): WebhookRegistration | undefined {
    return this.current.get(webhookId);
  }

  /** The registrations in force now. */
  registrations(): IterableIterator<WebhookRegistration> {
    return this.current.values();
  }

  get size(): number {
    return this.current.size;
  }

  /** Its room's list for each of its events (a bridge has several), or the group-wide lists of those events. */
  private listsOf(reg: WebhookRegistration): Array<[Map<string, WebhookRegistration[]>, string]> {
    // A set: a bridge that names an event twice is in its list once.
    return [...new Set(eventsOf(reg))].map((event) => (reg.roomId === null ? [this.groupWide, event] : [this.byRoom, key(reg.roomId, event)]));
  }

  /** `inOrder`: put in its place in each of its lists (else appended, the caller sorts). */
  private insert(reg: WebhookRegistration, inOrder: boolean): void {
    for (const [lists, k] of this.listsOf(reg)) {
      const list = lists.get(k);
      // After the forms that compare equal, as a (stable) sort of a full load puts it.
      if (list) list.splice(inOrder ? bound(list, reg, true) : list.length, 0, reg);
      else lists.set(k, [reg]);
    }
    const forms = this.forms.get(reg.id);
    if (forms) forms.push(reg);
    else this.forms.set(reg.id, [reg]);
    if (reg.removedVersion == null) this.current.set(reg.id, reg);
    if (hasVersions(reg)) this.versionedForms++;
  }

  private delete(reg: WebhookRegistration): void {
    for (const [lists, k] of this.listsOf(reg)) {
      const list = lists.get(k)!;
      list.splice(list.indexOf(reg, bound(list, reg, false)), 1);
      if (list.length === 0) lists.delete(k);
    }
    const forms = this.forms.get(reg.id)!;
    forms.splice(forms.indexOf(reg), 1);
    if (forms.length === 0) this.forms.delete(reg.id);
    if (this.current.get(reg.id) === reg) this.current.delete(reg.id);
    if (hasVersions(reg)) this.versionedForms--;
  }
}

const key = (roomId: number, event: WebhookEventName) => `${roomId}:${event}`;

const hasVersions = (reg: WebhookRegistration) => reg.removedVersion != null || (reg.createdVersion ?? 0) > 0;

/**
 * The first position in `list` (in compareForms' order) of a form that comes after `reg`
 * (`after`), or that does not come before it.
 */
function bound(list: WebhookRegistration[], reg: WebhookRegistration, after: boolean): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = compareForms(list[mid], reg);
    if (c < 0 || (after && c === 0)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Compiled patterns, each source compiled once (compiling costs far more than a match), the
 * least recently used dropped past `capacity`. A source the engine refuses throws on every
 * get, from the cache too.
 */
export class PatternCache {
  private readonly entries = new Map<string, CompiledPattern | Error>();

  constructor(
    private readonly capacity = 1000,
    private readonly compile: (source: string) => CompiledPattern = compileWebhookPattern,
  ) {
    if (!(capacity >= 1)) throw new RangeError('a pattern cache holds at least one pattern');
  }

  get(source: string): CompiledPattern {
    let entry = this.entries.get(source);
    if (entry !== undefined) {
      // Map keeps insertion order: re-inserting makes it the most recently used.
      this.entries.delete(source);
    } else {
      try {
        entry = this.compile(source);
      } catch (err) {
        entry = err instanceof Error ? err : new Error(String(err));
      }
      if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    }
    this.entries.set(source, entry);
    if (entry instanceof Error) throw entry;
    return entry;
  }

  /** `get` as a function, for matchingRegistrations' `patterns`. */
  readonly lookup = (source: string): CompiledPattern => this.get(source);

  get size(): number {
    return this.entries.size;
  }
}

import { CompiledPattern, compileWebhookPattern, isEnabled, WebhookEventName, WebhookRegistration } from '@app/contracts';

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
 * - only those registered for this event, and enabled (a webhook disabled for failing gets
 *   nothing until it is enabled again);
 * - room_created reaches only group-wide ones (a room registration needs the room to exist);
 * - room_message: the registration's `pattern`, when it has one, must match the message text
 *   (patterns apply to room_message only, as the specification says);
 * - room_notification: a webhook's reply is never delivered back to the webhook that caused
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

  return o.registrations.filter((reg) => {
    if (reg.event !== event || !isEnabled(reg)) return false;
    if (event === 'room_created' && reg.roomId !== null) return false;
    if (causedBy && causedBy.webhookId === reg.id) return false;
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
 * The dispatcher's index (room, event) → registrations, rebuilt from each snapshot, so no
 * event needs the database.
 */
/**
 * Whether a form of a registration is in force for an event stamped `version` (see
 * WebhookRegistration.createdVersion): an unstamped event sees only what is in force now.
 */
export function inForce(reg: WebhookRegistration, version: number | undefined): boolean {
  if (version === undefined) return reg.removedVersion == null;
  return (reg.createdVersion ?? 0) <= version && (reg.removedVersion == null || version < reg.removedVersion);
}

export class RegistrationIndex {
  private readonly byRoom = new Map<string, WebhookRegistration[]>();
  private readonly groupWide = new Map<WebhookEventName, WebhookRegistration[]>();
  private readonly forms = new Map<number, WebhookRegistration[]>();
  private readonly count: number;
  private readonly versioned: boolean;

  /** `regs` in force now; `removed`, forms removed or replaced lately (each with its removedVersion). */
  constructor(regs: WebhookRegistration[], removed: WebhookRegistration[] = []) {
    // One registration per id: a snapshot that lists one twice keeps the later.
    const unique = new Map<number, WebhookRegistration>();
    for (const reg of regs) {
      unique.delete(reg.id);
      unique.set(reg.id, reg);
    }
    const all = [...unique.values(), ...removed.filter((r) => r.removedVersion != null)];
    for (const reg of all) {
      if (reg.roomId === null) push(this.groupWide, reg.event, reg);
      else push(this.byRoom, key(reg.roomId, reg.event), reg);
      const forms = this.forms.get(reg.id);
      if (forms) forms.push(reg);
      else this.forms.set(reg.id, [reg]);
    }
    this.count = unique.size;
    this.versioned = all.some((r) => r.removedVersion != null || (r.createdVersion ?? 0) > 0);
  }

  /**
   * The room's registrations for the event, then the group-wide ones (roomId null), as they
   * were in force at `version` (an event's stamp; absent: now).
   */
  forEvent(roomId: number, event: WebhookEventName, version?: number): WebhookRegistration[] {
    const room = this.byRoom.get(key(roomId, event)) ?? [];
    const group = this.groupWide.get(event) ?? [];
    const found = [...room, ...group];
    return this.versioned ? found.filter((r) => inForce(r, version)) : found;
  }

  /** The form of a registration in force at `version`. */
  at(webhookId: number, version: number): WebhookRegistration | undefined {
    return this.forms.get(webhookId)?.find((r) => inForce(r, version));
  }

  get size(): number {
    return this.count;
  }
}

const key = (roomId: number, event: WebhookEventName) => `${roomId}:${event}`;

function push<K>(map: Map<K, WebhookRegistration[]>, k: K, reg: WebhookRegistration): void {
  const list = map.get(k);
  if (list) list.push(reg);
  else map.set(k, [reg]);
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

import { urlAddressRefusal, urlHttpsRefusal } from '@app/common';
import {
  addonUrlProblem, charLength, controlProblem, firstProblem, LIMITS, problemOf, storableTextProblem, V2_SCOPES, V2Scope, webhookField,
  WebhookAuthentication, WebhookDeliveryMode, WebhookEventName, WebhookSettings,
} from '@app/contracts';

/** A webhook an add-on's descriptor declares, checked. */
export type DeclaredWebhook = WebhookSettings;

/** What an installation takes from a descriptor, every rule checked. */
export interface AddonDescriptor {
  key: string;
  name: string;
  /** `links.self`: where the add-on says its descriptor is. */
  selfUrl: string;
  callbackUrl: string;
  scopes: V2Scope[];
  webhooks: DeclaredWebhook[];
}

export interface DescriptorRules {
  /** Installed in a room (true) or group-wide (false). */
  inRoom: boolean;
  /** Most webhooks one integration may declare (per room). */
  maxWebhooks: number;
  /**
   * WEBHOOK_ALLOWED_NETWORKS: a webhook URL at an address outside them is refused (urlAddressRefusal),
   * and the callbackUrl must be https unless its address is inside them (urlHttpsRefusal).
   */
  allowedNetworks?: readonly string[];
}

export type DescriptorCheck = { ok: true; descriptor: AddonDescriptor } | { ok: false; problems: string[] };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Checks an add-on descriptor (the JSON its URL answered) for installing it in a room or
 * group-wide, naming every defect (not only the first): an admin fixing a descriptor
 * sees them all at once. Pure: the fetching is the caller's.
 */
export function checkDescriptor(raw: unknown, rules: DescriptorRules): DescriptorCheck {
  const problems: string[] = [];
  const problem = (path: string, text: string) => void problems.push(`${path}: ${text}`);
  if (!isObject(raw)) return { ok: false, problems: ['the descriptor must be a JSON object'] };

  const key = requiredText(raw.key, 'key', 100, problem);
  let name = key ?? '';
  if (raw.name !== undefined && raw.name !== null) name = requiredText(raw.name, 'name', LIMITS.tokenLabelMaxLength, problem) ?? name;

  const links = raw.links;
  let selfUrl: string | null = null;
  if (!isObject(links)) problem('links.self', 'is required (the URL of this descriptor)');
  else selfUrl = url(links.self, 'links.self', problem);

  const capabilities = raw.capabilities;
  if (capabilities !== undefined && !isObject(capabilities)) problem('capabilities', 'must be an object');
  const caps = isObject(capabilities) ? capabilities : {};

  let callbackUrl: string | null = null;
  const installable = caps.installable;
  if (installable !== undefined && !isObject(installable)) problem('capabilities.installable', 'must be an object');
  else {
    const inst = isObject(installable) ? installable : {};
    callbackUrl = url(inst.callbackUrl, 'capabilities.installable.callbackUrl', problem);
    // It receives the OAuth secret. A host name is judged when it is called, on its addresses.
    const insecure = callbackUrl === null ? null : urlHttpsRefusal(callbackUrl, rules.allowedNetworks ?? []);
    if (insecure) {
      problem('capabilities.installable.callbackUrl', insecure);
      callbackUrl = null;
    }
    const allowRoom = flag(inst.allowRoom, 'capabilities.installable.allowRoom', problem);
    const allowGlobal = flag(inst.allowGlobal, 'capabilities.installable.allowGlobal', problem);
    if (rules.inRoom && allowRoom === false) problem('capabilities.installable.allowRoom', 'is false: this add-on cannot be installed in a room (install it group-wide)');
    if (!rules.inRoom && allowGlobal === false) problem('capabilities.installable.allowGlobal', 'is false: this add-on cannot be installed group-wide (install it in a room)');
  }

  const scopes = checkScopes(caps.hipchatApiConsumer, problem);
  const webhooks = checkWebhooks(caps.webhook, rules.maxWebhooks, rules.allowedNetworks ?? [], problem);

  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, descriptor: { key: key!, name, selfUrl: selfUrl!, callbackUrl: callbackUrl!, scopes, webhooks } };
}

type Report = (path: string, text: string) => void;

function requiredText(v: unknown, path: string, max: number, problem: Report): string | null {
  if (v === undefined || v === null || v === '') {
    problem(path, 'is required');
    return null;
  }
  if (typeof v !== 'string') {
    problem(path, `must be text (got ${typeOf(v)})`);
    return null;
  }
  const p = firstProblem(storableTextProblem(v), controlProblem(v), charLength(v) > max ? `must be at most ${max} characters (got ${charLength(v)})` : null);
  if (p) {
    problem(path, p);
    return null;
  }
  return v;
}

function url(v: unknown, path: string, problem: Report): string | null {
  if (v === undefined || v === null || v === '') {
    problem(path, 'is required');
    return null;
  }
  if (typeof v !== 'string') {
    problem(path, `must be an http(s) URL (got ${typeOf(v)})`);
    return null;
  }
  const p = firstProblem(storableTextProblem(v), addonUrlProblem(v));
  if (p) {
    problem(path, p);
    return null;
  }
  return v;
}

function flag(v: unknown, path: string, problem: Report): boolean | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') {
    problem(path, `must be true or false (got ${typeOf(v)})`);
    return undefined;
  }
  return v;
}

function checkScopes(consumer: unknown, problem: Report): V2Scope[] {
  if (consumer === undefined || consumer === null) return [];
  if (!isObject(consumer)) {
    problem('capabilities.hipchatApiConsumer', 'must be an object');
    return [];
  }
  const scopes = consumer.scopes;
  if (scopes === undefined || scopes === null) return [];
  if (!Array.isArray(scopes)) {
    problem('capabilities.hipchatApiConsumer.scopes', 'must be a list of scope names');
    return [];
  }
  const known: V2Scope[] = [];
  scopes.forEach((s, i) => {
    if (typeof s === 'string' && (V2_SCOPES as readonly string[]).includes(s)) known.push(s as V2Scope);
    else problem(`capabilities.hipchatApiConsumer.scopes[${i}]`, `unknown scope ${JSON.stringify(s)?.slice(0, 60)} (the scopes are ${V2_SCOPES.join(', ')})`);
  });
  return [...new Set(known)];
}

function checkWebhooks(declared: unknown, max: number, allowedNetworks: readonly string[], problem: Report): DeclaredWebhook[] {
  if (declared === undefined || declared === null) return [];
  // HipChat descriptors list them; a single one given as an object is the same thing.
  const entries = Array.isArray(declared) ? declared : isObject(declared) ? [declared] : null;
  if (!entries) {
    problem('capabilities.webhook', 'must be a list of webhooks');
    return [];
  }
  if (entries.length > max) problem('capabilities.webhook', `declares ${entries.length} webhooks; at most ${max} are allowed`);
  const webhooks: DeclaredWebhook[] = [];
  const keys = new Map<string, number>();
  entries.forEach((entry, i) => {
    const at = `capabilities.webhook[${i}]`;
    if (!isObject(entry)) {
      problem(at, 'must be an object with url and event');
      return;
    }
    const webhook = webhookProblems(entry, at, allowedNetworks, problem);
    if (typeof entry.key === 'string') {
      const first = keys.get(entry.key);
      if (first !== undefined) problem(`${at}.key`, `"${entry.key}" is already the key of capabilities.webhook[${first}] (keys are unique within an add-on)`);
      else keys.set(entry.key, i);
    }
    if (webhook) webhooks.push(webhook);
  });
  return webhooks;
}

/** One entry, with the rules of the REST registration (the same `webhookField` rules). */
function webhookProblems(e: Record<string, unknown>, at: string, allowedNetworks: readonly string[], problem: Report): DeclaredWebhook | null {
  let ok = true;
  const check = (fieldName: keyof typeof webhookField, value: unknown, required: boolean): void => {
    if (value === undefined || value === null) {
      if (required) {
        problem(`${at}.${fieldName}`, 'is required');
        ok = false;
      }
      return;
    }
    const p = problemOf(webhookField[fieldName], value);
    if (p) {
      problem(`${at}.${fieldName}`, p);
      ok = false;
    }
  };
  check('url', e.url, true);
  const refusal = ok && typeof e.url === 'string' ? urlAddressRefusal(e.url, allowedNetworks) : null;
  if (refusal) {
    problem(`${at}.url`, `cannot be delivered to: ${refusal}`);
    ok = false;
  }
  check('event', e.event, true);
  check('pattern', e.pattern, false);
  check('name', e.name, false);
  check('authentication', e.authentication, false);
  // Our extension, as on a webhook registered over REST.
  check('delivery', e.delivery, false);
  check('key', e.key, false);
  const hasPattern = e.pattern !== undefined && e.pattern !== null && e.pattern !== '';
  if (hasPattern && typeof e.event === 'string' && e.event !== 'room_message') {
    problem(`${at}.pattern`, `applies to room_message webhooks only (this one is for ${e.event.slice(0, 40)})`);
    ok = false;
  }
  if (!ok) return null;
  return {
    event: e.event as WebhookEventName,
    url: e.url as string,
    pattern: hasPattern ? (e.pattern as string) : null,
    name: (e.name as string | undefined) ?? '',
    authentication: (e.authentication as WebhookAuthentication | undefined) ?? 'none',
    delivery: (e.delivery as WebhookDeliveryMode | undefined) ?? 'concurrent',
    key: (e.key as string | undefined) ?? null,
  };
}

function typeOf(v: unknown): string {
  return Array.isArray(v) ? 'a list' : v === null ? 'null' : typeof v === 'object' ? 'an object' : typeof v;
}

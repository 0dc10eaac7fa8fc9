import { randomUUID } from 'node:crypto';
import { redactText } from '@app/common';
import { commandFailure, isBridge, type ReplyOf, type RequestOf, type TestBridgeV1 } from '@app/contracts';
import { Registrations } from '../registrations/registrations';
import type { BridgeRegistration } from './bridge-delivery';
import type { BridgeSender, BridgeSent } from './bridge-sender';
import { toBridgeMessage } from './formats/message';

/** At most this much of the platform's answer is shown. */
export const TEST_ANSWER_MAX = 2_000;

/**
 * Posts "Bridge test from {room}" through a bridge now, as any of its posts goes (its
 * format, the SSRF guard, its posting budget), and answers what the platform said, its
 * secrets redacted. Recorded nowhere; a "never again" answer is shown, not acted on (the
 * person testing sees it; the bridge's next delivery disables it).
 */
export class TestBridge {
  constructor(private readonly registrations: Registrations, private readonly sender: BridgeSender) {}

  async execute(c: RequestOf<typeof TestBridgeV1>): Promise<ReplyOf<typeof TestBridgeV1>> {
    const registration = await this.bridgeOf(c.bridgeId);
    const message = toBridgeMessage({
      event: 'room_notification',
      deliveryId: randomUUID(),
      item: { room: { name: c.roomName }, message: { message: `Bridge test from ${c.roomName}`, message_format: 'text' } },
    });
    return testReply(await this.sender.sendOne(registration, message));
  }

  /** The bridge, the index brought up to now first when it does not know it (one created a moment ago). */
  private async bridgeOf(id: number): Promise<BridgeRegistration> {
    let found = this.registrations.get(id);
    if (!found) {
      await this.registrations.freshSince(Date.now());
      found = this.registrations.get(id);
    }
    if (!found || !isBridge(found)) throw commandFailure('not_found', 'bridge_not_found', 'bridge', { ref: String(id) });
    return found as BridgeRegistration;
  }
}

/** What the person testing is shown: the platform's status and words (or why none came), redacted and bounded. */
export function testReply(sent: BridgeSent): ReplyOf<typeof TestBridgeV1> {
  const { result } = sent;
  const said = result.kind === 'response' ? result.body : `${result.failure}: ${result.message}`;
  return {
    status: result.kind === 'response' ? result.status : null,
    body: redactText(said, sent.secrets).slice(0, TEST_ANSWER_MAX),
    outcome: sent.platform.outcome,
    durationMs: Math.round(result.durationMs),
  };
}

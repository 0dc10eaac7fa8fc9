import type { PrivateMessageView } from '../../commands/users/get-private-history';
import { defineEvent } from '../envelope';

/** Who sent or received a private message, as the event names them. */
export interface PrivateChatUser { id: number; name: string; mentionName: string; version: string }

/**
 * A private message was sent (POST /v2/user/{user}/message). Not a room event and not a
 * webhook event: its routing key (`user.private-message-sent.v1`) is outside the
 * dispatcher's `room.*.v2`. Live user streams (GET /v2/user/{user}/events) of its sender
 * and its recipient carry it. `message.from` is the sender.
 */
export interface PrivateMessageSentV1Payload { message: PrivateMessageView; to: PrivateChatUser }
export const PrivateMessageSentV1 = defineEvent<PrivateMessageSentV1Payload>('user.private-message-sent', 1);

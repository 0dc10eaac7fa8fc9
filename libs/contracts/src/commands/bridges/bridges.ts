import { z } from 'zod';
import { idSchema } from '../../rules/ids';
import { defineCommand } from '../define-command';
import { actorSchema, roomRefSchema } from '../refs';
import { BridgeView, bridgeSpecSchema } from './bridge-fields';

const bridgeId = idSchema;

/**
 * What a change that makes an inbound URL answers: its key, shown this once (only its hash
 * is kept); the edge makes it `{public base}/v2/bridge/inbound/{key}`.
 */
export interface BridgeChangeReply {
  bridge: BridgeView;
  inboundKey?: string;
}

/** Bridges a room to a chat platform (`POST /v2/room/{room}/bridge`). */
export const CreateBridgeV1 = defineCommand<BridgeChangeReply>('bridges.create-bridge.v1', bridgeSpecSchema.extend({
  actor: actorSchema,
  room: roomRefSchema,
}));

/**
 * Replaces what a bridge describes (`PUT /v2/room/{room}/bridge/{id}`): its kind cannot
 * change; inbound secrets left out are kept; `inbound.rotate` makes a new inbound URL.
 */
export const PutBridgeV1 = defineCommand<BridgeChangeReply>('bridges.put-bridge.v1', bridgeSpecSchema.extend({
  actor: actorSchema,
  room: roomRefSchema,
  id: bridgeId,
}));

/** The bridges of a room, in id order; reads `limit` from `startIndex`. */
export const ListBridgesV1 = defineCommand<{ bridges: BridgeView[] }>('bridges.list-bridges.v1', z.object({
  actor: actorSchema,
  room: roomRefSchema,
  startIndex: z.number().int().min(0),
  limit: z.number().int().min(1).max(1001),
}), { query: true });

/** `roomName`: the room's name, for what names it (a test post says "Bridge test from {room}"). */
export const GetBridgeV1 = defineCommand<{ bridge: BridgeView; roomName: string }>('bridges.get-bridge.v1', z.object({
  actor: actorSchema,
  room: roomRefSchema,
  id: bridgeId,
}), { query: true });

export const DeleteBridgeV1 = defineCommand<Record<string, never>>('bridges.delete-bridge.v1', z.object({
  actor: actorSchema,
  room: roomRefSchema,
  id: bridgeId,
}));

/**
 * Enables a bridge again and resets its health (`POST /v2/room/{room}/bridge/{id}/enable`,
 * `cli bridge enable`): as a webhook is enabled, what it missed while disabled is not sent.
 */
export const EnableBridgeV1 = defineCommand<{ bridge: BridgeView }>('bridges.enable-bridge.v1', z.object({
  actor: actorSchema,
  room: roomRefSchema,
  id: bridgeId,
}));

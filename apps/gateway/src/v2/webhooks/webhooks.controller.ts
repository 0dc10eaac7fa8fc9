import { Delete, Get, HttpCode, Inject, Param, Post, Put, Query, Res } from '@nestjs/common';
import {
  Actor, CreateWebhookV1, DeleteWebhookV1, GetWebhookV1, ListWebhooksV1, parseRoomRef, PutWebhookV1, WebhookRef,
} from '@app/contracts';
import type { FastifyReply } from 'fastify';
import { GATEWAY_CONFIG, GatewayConfig } from '../../config';
import { ApiError } from '../../shared/api-error';
import { RoomsClient } from '../../shared/rooms-client';
import { pageOf, pageResponse, probeLimit, splitProbe } from '../http/pagination';
import { RequireScopes, Summary } from '../http/route-options';
import { V2Controller } from '../http/v2-controller';
import { CurrentActor } from '../http/v2-request';
import { describeIssue, V2Body, V2Query } from '../http/validation';
import { toV2CreatedWebhook, toV2Webhook, toV2WebhookItem } from './webhooks.presenter';
import {
  CreateWebhookBody, createWebhookBody, specOf, WebhookBody, webhookBody, webhookKeyParam, WebhookListQuery, webhookListQuery,
} from './webhooks.schemas';

const ID = /^\d{1,9}$/;

/** `{id}`: a webhook id; anything else names no webhook. */
function idRef(raw: string): WebhookRef {
  if (!ID.test(raw) || Number(raw) === 0) throw new ApiError(404, `Webhook ${raw.slice(0, 100)} not found`);
  return { id: Number(raw) };
}

/** `{key}`: checked with the key's rule (1 to 40 characters), a 400 naming `key` otherwise. */
function keyRef(raw: string): WebhookRef & { key: string } {
  const parsed = webhookKeyParam.safeParse(raw);
  if (!parsed.success) throw new ApiError(400, describeIssue(parsed.error.issues[0], 'key'));
  return { key: parsed.data };
}

/**
 * A room's webhooks, in both forms add-on frameworks use: by id (`/webhook`) and by the
 * integration's key (`/extension/webhook/{key}`). Administering a room's webhooks takes
 * `admin_room`; room tokens (send_notification only) are refused by the scope check.
 */
@V2Controller('room')
export class WebhooksController {
  private readonly base: string;

  constructor(private readonly rooms: RoomsClient, @Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.base = config.PUBLIC_BASE_URL;
  }

  @Post(':room/webhook')
  @Summary('Register a webhook of a room (its signing secret is answered this once)')
  @HttpCode(201)
  @RequireScopes('admin_room')
  async create(@Param('room') room: string, @V2Body(createWebhookBody) b: CreateWebhookBody, @CurrentActor() actor: Actor) {
    const { webhook, secret } = await this.rooms.send(CreateWebhookV1, {
      actor, room: parseRoomRef(room), ...specOf(b), ...(b.key !== undefined ? { key: b.key } : {}),
    });
    return toV2CreatedWebhook(webhook, secret, this.base);
  }

  @Get(':room/webhook')
  @Summary('List the webhooks of a room')
  @RequireScopes('admin_room')
  async list(@Param('room') room: string, @V2Query(webhookListQuery) q: WebhookListQuery, @Query() raw: Record<string, unknown>, @CurrentActor() actor: Actor) {
    const page = pageOf(q);
    const { webhooks } = await this.rooms.send(ListWebhooksV1, { actor, room: parseRoomRef(room), startIndex: page.startIndex, limit: probeLimit(page) });
    const { items, hasMore } = splitProbe(webhooks, page);
    return pageResponse(items.map((w) => toV2WebhookItem(w, this.base)), page, hasMore, `${this.base}/v2/room/${encodeURIComponent(room)}/webhook`, raw);
  }

  @Get(':room/webhook/:id')
  @Summary('Get a webhook of a room')
  @RequireScopes('admin_room')
  async get(@Param('room') room: string, @Param('id') id: string, @CurrentActor() actor: Actor) {
    const { webhook } = await this.rooms.send(GetWebhookV1, { actor, room: parseRoomRef(room), webhook: idRef(id) });
    return toV2Webhook(webhook, this.base);
  }

  @Delete(':room/webhook/:id')
  @Summary('Delete a webhook of a room')
  @HttpCode(204)
  @RequireScopes('admin_room')
  async delete(@Param('room') room: string, @Param('id') id: string, @CurrentActor() actor: Actor): Promise<void> {
    await this.rooms.send(DeleteWebhookV1, { actor, room: parseRoomRef(room), webhook: idRef(id) });
  }

  /**
   * Creates (201 with the id, links and the secret, shown this once) or replaces (204: the
   * same webhook, id and secret kept, so there is nothing new to show) the webhook with this key.
   */
  @Put(':room/extension/webhook/:key')
  @Summary('Create or replace the webhook with this key (201 created, 204 replaced)')
  @HttpCode(201)
  @RequireScopes('admin_room')
  async put(
    @Param('room') room: string, @Param('key') key: string, @V2Body(webhookBody) b: WebhookBody,
    @CurrentActor() actor: Actor, @Res() res: FastifyReply,
  ): Promise<void> {
    const ref = keyRef(key);
    const reply = await this.rooms.send(PutWebhookV1, { actor, room: parseRoomRef(room), key: ref.key, ...specOf(b) });
    // Nest would answer the decorator's status whatever the outcome: this route sends its own.
    if (reply.created && reply.secret !== undefined) {
      await res.status(201).send(toV2CreatedWebhook(reply.webhook, reply.secret, this.base));
    } else {
      await res.status(204).send();
    }
  }

  @Get(':room/extension/webhook/:key')
  @Summary('Get the webhook with this key')
  @RequireScopes('admin_room')
  async getByKey(@Param('room') room: string, @Param('key') key: string, @CurrentActor() actor: Actor) {
    const { webhook } = await this.rooms.send(GetWebhookV1, { actor, room: parseRoomRef(room), webhook: keyRef(key) });
    return toV2Webhook(webhook, this.base);
  }

  @Delete(':room/extension/webhook/:key')
  @Summary('Delete the webhook with this key')
  @HttpCode(204)
  @RequireScopes('admin_room')
  async deleteByKey(@Param('room') room: string, @Param('key') key: string, @CurrentActor() actor: Actor): Promise<void> {
    await this.rooms.send(DeleteWebhookV1, { actor, room: parseRoomRef(room), webhook: keyRef(key) });
  }
}

import { createParamDecorator, Delete, ExecutionContext, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import {
  Actor, CreateWebhookV1, DeleteWebhookV1, EnableWebhookV1, GetWebhookV1, ListWebhooksV1, pathId, PutWebhookV1,
  RoomRef, v2Links, WebhookRef,
} from '@app/contracts';
import type { FastifyReply } from 'fastify';
import { ApiError } from '../../shared/api-error';
import { Notes, RequireScopes, ResponseSchema, Summary } from '../http/route-options';
import { V2Controller } from '../http/v2-controller';
import { CurrentActor, pathParam, RoomRefParam } from '../http/v2-request';
import { V2Resource } from '../http/v2-resource';
import { describeIssue, V2Body, V2Query } from '../http/validation';
import { toV2CreatedWebhook, toV2Webhook, toV2WebhookItem } from './webhooks.presenter';
import {
  CreateWebhookBody, createWebhookBody, specOf, WebhookBody, webhookBody, webhookKeyParam, WebhookListQuery, webhookListQuery,
  webhookPageSchema, webhookSchema,
} from './webhooks.schemas';

/** `{id}`: a webhook id; anything else names no webhook. */
function idRef(raw: string): WebhookRef {
  const id = pathId(raw);
  if (id === null) throw new ApiError(404, `Webhook ${raw.slice(0, 100)} not found`);
  return { id };
}

/** `{key}`: checked with the key's rule (1 to 40 characters), a 400 naming `key` otherwise. */
function keyRef(raw: string): WebhookRef & { key: string } {
  const parsed = webhookKeyParam.safeParse(raw);
  if (!parsed.success) throw new ApiError(400, describeIssue(parsed.error.issues[0], 'key'));
  return { key: parsed.data };
}

/** `{id}` of the path as the webhook it names (404 when it can name none). Its deliveries' routes take it too. */
export const WebhookIdParam = createParamDecorator((_: unknown, ctx: ExecutionContext): WebhookRef => idRef(pathParam(ctx, 'id')));

/** `{key}` of the path as the webhook it names (400 naming `key` when it breaks the key's rule). */
const WebhookKeyParam = createParamDecorator((_: unknown, ctx: ExecutionContext): WebhookRef => keyRef(pathParam(ctx, 'key')));

/**
 * A room's webhooks, in both forms add-on frameworks use: by id (`/webhook`) and by the
 * integration's key (`/extension/webhook/{key}`). Administering a room's webhooks takes
 * `admin_room`; room tokens (send_notification only) are refused by the scope check.
 */
@V2Controller('room')
export class WebhooksController extends V2Resource {
  @Post(':room/webhook')
  @Summary('Register a webhook of a room (its signing secret is answered this once)')
  @Notes('`secret` signs its JWTs and Standard Webhooks signatures. Registered with an add-on\'s token, the webhook is the add-on\'s: its deliveries carry `oauth_client_id` and are signed with the add-on\'s oauthSecret, so the answer has no `secret`.')
  @HttpCode(201)
  @RequireScopes('admin_room')
  async create(@RoomRefParam() room: RoomRef, @V2Body(createWebhookBody) b: CreateWebhookBody, @CurrentActor() actor: Actor) {
    const { webhook, secret } = await this.rooms.send(CreateWebhookV1, {
      actor, room, ...specOf(b), ...(b.key !== undefined ? { key: b.key } : {}),
    });
    return toV2CreatedWebhook(webhook, secret, this.base);
  }

  @Get(':room/webhook')
  @Summary('List the webhooks of a room, with their health')
  @RequireScopes('admin_room')
  @ResponseSchema(webhookPageSchema)
  list(@RoomRefParam() room: RoomRef, @Param('room') name: string, @V2Query(webhookListQuery) q: WebhookListQuery, @Query() raw: Record<string, unknown>, @CurrentActor() actor: Actor) {
    return this.page(q, raw, v2Links('').webhooks(name),
      async (w) => (await this.rooms.send(ListWebhooksV1, { actor, room, ...w })).webhooks, toV2WebhookItem);
  }

  @Get(':room/webhook/:id')
  @Summary('Get a webhook of a room, with its health')
  @RequireScopes('admin_room')
  @ResponseSchema(webhookSchema)
  get(@RoomRefParam() room: RoomRef, @WebhookIdParam() webhook: WebhookRef, @CurrentActor() actor: Actor) {
    return this.getOne(actor, room, webhook);
  }

  /**
   * Enables a webhook disabled for failing, and resets its health (enabling an enabled one
   * only resets it). What it missed while disabled is not sent.
   */
  @Post(':room/webhook/:id/enable')
  @Summary('Enable a webhook again and reset its health (what it missed while disabled is not sent)')
  @HttpCode(204)
  @RequireScopes('admin_room')
  async enable(@RoomRefParam() room: RoomRef, @WebhookIdParam() webhook: WebhookRef, @CurrentActor() actor: Actor): Promise<void> {
    await this.rooms.send(EnableWebhookV1, { actor, room, webhook });
  }

  @Delete(':room/webhook/:id')
  @Summary('Delete a webhook of a room')
  @HttpCode(204)
  @RequireScopes('admin_room')
  delete(@RoomRefParam() room: RoomRef, @WebhookIdParam() webhook: WebhookRef, @CurrentActor() actor: Actor): Promise<void> {
    return this.deleteOne(actor, room, webhook);
  }

  /**
   * Creates (201 with the id, links and the secret, shown this once) or replaces (204: the
   * same webhook, id and secret kept, so there is nothing new to show) the webhook with this key.
   */
  @Put(':room/extension/webhook/:key')
  @Summary('Create or replace the webhook with this key (201 created, 204 replaced)')
  @Notes('The 201 carries the new webhook\'s `secret`, except for an add-on\'s token: its webhook signs with the add-on\'s oauthSecret.')
  @HttpCode(201)
  @RequireScopes('admin_room')
  async put(
    @RoomRefParam() room: RoomRef, @Param('key') key: string, @V2Body(webhookBody) b: WebhookBody,
    @CurrentActor() actor: Actor, @Res() res: FastifyReply,
  ): Promise<void> {
    // Read here, not by a parameter decorator: a broken body is reported before a broken key, as it always was.
    const ref = keyRef(key);
    const reply = await this.rooms.send(PutWebhookV1, { actor, room, key: ref.key, ...specOf(b) });
    // Nest would answer the decorator's status whatever the outcome: this route sends its own.
    if (reply.created) {
      await res.status(201).send(toV2CreatedWebhook(reply.webhook, reply.secret, this.base));
    } else {
      await res.status(204).send();
    }
  }

  @Get(':room/extension/webhook/:key')
  @Summary('Get the webhook with this key, with its health')
  @RequireScopes('admin_room')
  @ResponseSchema(webhookSchema)
  getByKey(@RoomRefParam() room: RoomRef, @WebhookKeyParam() webhook: WebhookRef, @CurrentActor() actor: Actor) {
    return this.getOne(actor, room, webhook);
  }

  @Delete(':room/extension/webhook/:key')
  @Summary('Delete the webhook with this key')
  @HttpCode(204)
  @RequireScopes('admin_room')
  deleteByKey(@RoomRefParam() room: RoomRef, @WebhookKeyParam() webhook: WebhookRef, @CurrentActor() actor: Actor): Promise<void> {
    return this.deleteOne(actor, room, webhook);
  }

  /** By id or by key alike. */
  private async getOne(actor: Actor, room: RoomRef, webhook: WebhookRef) {
    return toV2Webhook((await this.rooms.send(GetWebhookV1, { actor, room, webhook })).webhook, this.base);
  }

  private async deleteOne(actor: Actor, room: RoomRef, webhook: WebhookRef): Promise<void> {
    await this.rooms.send(DeleteWebhookV1, { actor, room, webhook });
  }
}

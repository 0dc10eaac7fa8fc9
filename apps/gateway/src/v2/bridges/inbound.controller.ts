import { Body, Headers, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import type { Context } from '@opentelemetry/api';
import { ReceiveBridgeInboundV1 } from '@app/contracts';
import { z } from 'zod';
import { ApiError } from '../../shared/api-error';
import { RoomsClient } from '../../shared/rooms-client';
import { Notes, OtherAnswers, Public, ResponseSchema, SignedBody, Summary } from '../http/route-options';
import { V2Controller } from '../http/v2-controller';
import { RequestTrace } from '../http/v2-request';
import { InboundLimitGuard } from './inbound-limit.guard';

const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';

const slackStyleBody = z.object({
  token: z.string().optional().describe('The platform\'s verification token (checked when the bridge has inbound.token)'),
  text: z.string().describe('The message (at most 10,000 characters)'),
  user_name: z.string().optional(),
  user_id: z.string().optional(),
  channel_name: z.string().optional(),
  trigger_word: z.string().optional(),
}).passthrough();
const teamsActivity = z.object({
  type: z.literal('message'),
  text: z.string().describe('HTML; the <at> mention of the outgoing webhook is removed'),
  from: z.object({ id: z.string(), name: z.string() }).passthrough(),
}).passthrough();

/**
 * What the platform is answered, posted or ignored alike, so that it posts nothing itself:
 * the reply reaches the channel through the outbound bridge.
 * - Slack-style (Mattermost, Rocket.Chat, Slack): a `text` in the answer would be posted as
 *   a reply (https://developers.mattermost.com/integrate/webhooks/outgoing/), so an empty
 *   object.
 * - Teams: the answer must come within 5 seconds, and a message activity in it is posted
 *   in the thread (https://learn.microsoft.com/en-us/microsoftteams/platform/webhooks-and-connectors/how-to/add-outgoing-webhook);
 *   an activity with empty text could still show an empty reply, so no activity at all:
 *   the same empty object. The post is stored before this answer: well within the limit.
 */
const NOTHING_TO_POST = {};

/**
 * A bridge's inbound URL, which the platform's outgoing webhook posts to (our extension).
 * Public: the key in the path is the credential (no token), with the bridge's token or
 * Teams' HMAC when it has one; limited per client address and per bridge. The body goes to
 * the rooms service as its bytes: only it can open the bridge's secrets, and Teams signs
 * the exact bytes.
 */
@V2Controller('bridge')
export class BridgeInboundController {
  constructor(private readonly rooms: RoomsClient) {}

  @Post('inbound/:key')
  @Summary('Receive a post from a bridged channel (the platform\'s outgoing webhook)')
  @Notes('The URL is the one a bridge with inbound.enabled answered (its key is the credential). Slack-style outgoing webhooks '
    + '(Mattermost, Rocket.Chat, Slack): form or JSON with token, text, user_name; Teams: a message activity signed with '
    + '`Authorization: HMAC <base64>`. The message is posted in the bridge\'s room from "{user_name} ({platform})"; posts by bots and '
    + 'webhooks, and echoes of the room\'s own messages within a minute, are ignored. The answer is `{}` either way: it posts nothing. '
    + 'Counted per bridge by the flood control\'s budget (X-FloodControl-*).')
  @HttpCode(200)
  @Public()
  @SignedBody({ [FORM]: slackStyleBody, [JSON_TYPE]: z.union([slackStyleBody, teamsActivity]) })
  @UseGuards(InboundLimitGuard)
  @ResponseSchema(z.object({}))
  @OtherAnswers({
    401: 'The bridge has a token or an HMAC secret, and the request did not carry it (or a wrong one): nothing was posted.',
    404: 'No bridge takes inbound posts at this key (unknown, or the bridge or its inbound is disabled).',
    415: 'The body is neither a form nor JSON.',
  })
  async receive(
    @Param('key') key: string, @Body() body: Buffer | undefined, @Headers('content-type') contentType: string | undefined,
    @Headers('authorization') authorization: string | undefined, @RequestTrace() trace?: Context,
  ) {
    // A key no bridge could have is answered as an unknown one, without asking.
    if (!/^[A-Za-z0-9_-]{20,100}$/.test(key)) throw new ApiError(404, 'Not found');
    const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
    if (type !== FORM && type !== JSON_TYPE && type !== '') {
      throw new ApiError(415, `The request body must be a form (Content-Type: ${FORM}) or JSON (Content-Type: ${JSON_TYPE}); got ${contentType}.`);
    }
    await this.rooms.send(ReceiveBridgeInboundV1, {
      key, contentType: contentType ?? JSON_TYPE, body: (body ?? Buffer.alloc(0)).toString('base64'),
      ...(authorization !== undefined ? { authorization: authorization.slice(0, 1000) } : {}),
    }, trace);
    return NOTHING_TO_POST;
  }
}

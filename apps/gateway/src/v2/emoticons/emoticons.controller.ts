import { Controller, Get, Inject, Param, Query, Res, UseFilters } from '@nestjs/common';
import { oneOf, v2Links } from '@app/contracts';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { GATEWAY_CONFIG, GatewayConfig } from '../../config';
import { ApiError } from '../../shared/api-error';
import { pageOf, pageQuery, pageResponse } from '../http/pagination';
import { RequireScopes, Summary } from '../http/route-options';
import { V2Controller } from '../http/v2-controller';
import { V2Query } from '../http/validation';
import { V2Filter } from '../v2.filter';
import { Emoticon, EmoticonListType, findEmoticon, listEmoticons } from './catalogue';
import { EMOTICON_SVG_CONTENT_TYPE, emoticonDetail, emoticonListItem, emoticonSvg } from './emoticon-image';

export const emoticonListQuery = z.object({
  ...pageQuery,
  type: z.preprocess((v) => (v === '' ? undefined : v), oneOf(['all', 'global', 'group'] as const).optional()),
});
type EmoticonListQuery = z.output<typeof emoticonListQuery>;

/** GET /v2/emoticon and /v2/emoticon/{id_or_shortcut}: the built-in catalogue. */
@V2Controller('emoticon')
export class EmoticonsController {
  private readonly base: string;

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.base = config.PUBLIC_BASE_URL;
  }

  @Get()
  @Summary('List emoticons')
  @RequireScopes('view_group')
  list(@V2Query(emoticonListQuery) q: EmoticonListQuery, @Query() raw: Record<string, unknown>) {
    const page = pageOf(q);
    const type: EmoticonListType = q.type ?? 'all';
    const { items, total } = listEmoticons({ type, startIndex: page.startIndex, maxResults: page.maxResults });
    const hasMore = page.startIndex + items.length < total;
    return pageResponse(items.map((e) => emoticonListItem(e, this.base)), page, hasMore, v2Links(this.base).emoticons, raw);
  }

  @Get(':key')
  @Summary('Get an emoticon by id or shortcut')
  @RequireScopes('view_group')
  get(@Param('key') key: string) {
    const emoticon = findEmoticon(key);
    if (!emoticon) throw new ApiError(404, `Emoticon ${key.slice(0, 100)} not found`);
    return emoticonDetail(emoticon, this.base);
  }
}

/** `<shortcut>.svg`: by shortcut only (an id would give one image two addresses). */
export function emoticonOfImageFile(file: string): Emoticon | undefined {
  const match = /^([a-z0-9]+)\.svg$/i.exec(file);
  if (!match || /^\d+$/.test(match[1])) return undefined;
  return findEmoticon(match[1]);
}

/**
 * The images the catalogue's `url`s point at: public (chat clients load them as <img>,
 * without a token) and cacheable for a day. Outside /v2, but errors in the v2 body.
 */
@Controller('emoticons')
@UseFilters(V2Filter)
export class EmoticonImagesController {
  private readonly svgs = new Map<number, string>();

  @Get(':file')
  image(@Param('file') file: string, @Res({ passthrough: true }) res: FastifyReply): string {
    const emoticon = emoticonOfImageFile(file);
    if (!emoticon) throw new ApiError(404, `No emoticon image ${file.slice(0, 100)}`);
    // Set here rather than by @Header, which would mark a 404 cacheable too.
    res.header('Content-Type', EMOTICON_SVG_CONTENT_TYPE).header('Cache-Control', 'public, max-age=86400');
    let svg = this.svgs.get(emoticon.id);
    if (svg === undefined) {
      svg = emoticonSvg(emoticon);
      this.svgs.set(emoticon.id, svg);
    }
    return svg;
  }
}

import { applyDecorators, Controller, UseFilters, UseGuards } from '@nestjs/common';
import { V2AccessGuard } from '../auth/v2-access.guard';
import { V2AuthGuard } from '../auth/v2-token.strategy';
import { V2Filter } from '../v2.filter';
import { V2BodyGuard } from './v2-body.guard';

/**
 * A v2 resource's controller under `/v2/<path>`: its token authenticated, rate-limited and
 * checked for the operation's scopes, then its body read, in that order (so that every
 * answer to a token, a body that cannot be read included, carries its rate-limit headers);
 * its errors in the v2 error body. Handlers then only call their use case.
 */
export const V2Controller = (path: string) => applyDecorators(
  Controller(path ? `v2/${path}` : 'v2'),
  UseFilters(V2Filter),
  UseGuards(V2AuthGuard, V2AccessGuard, V2BodyGuard),
);

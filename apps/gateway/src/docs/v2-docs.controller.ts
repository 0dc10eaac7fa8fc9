import { Controller, Get, Headers, Inject, OnApplicationBootstrap, Query, Res } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import type { FastifyReply } from 'fastify';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { send } from '../console/console.controller';
import { ConsoleFiles } from '../console/console-files';
import { CONSOLE_FILES } from '../console/console.tokens';
import { V1_METHODS } from '../v1/methods';
import { buildV2OpenApi, routeInfo, V2RouteInfo } from './v2-openapi';

/**
 * The v2 API's OpenAPI 3.1 document, generated at start-up from the routes as Nest
 * registered them (paths, verbs, statuses, the zod schemas of bodies and queries, scopes),
 * so it cannot drift from the code; and a page that shows it (Swagger UI, bundled with the
 * console: no script from another origin).
 */
@Controller('docs/api/v2')
export class V2DocsController implements OnApplicationBootstrap {
  private document: Record<string, unknown> = {};

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(CONSOLE_FILES) private readonly files: ConsoleFiles,
  ) {}

  onApplicationBootstrap(): void {
    const routes: V2RouteInfo[] = [];
    for (const wrapper of this.discovery.getControllers()) {
      const instance = wrapper.instance as object | undefined;
      if (!instance) continue;
      for (const name of this.scanner.getAllMethodNames(Object.getPrototypeOf(instance))) {
        const info = routeInfo(instance, name);
        if (info) routes.push(info);
      }
    }
    const base = this.config.PUBLIC_BASE_URL;
    this.document = buildV2OpenApi(routes, base, V1_METHODS);
  }

  @Get()
  show(
    @Headers('accept') accept: string | undefined,
    @Query('format') format: string | undefined,
    @Headers('if-none-match') etag: string | undefined,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Buffer | string | Record<string, unknown> {
    if (format === 'json' || (accept ?? '').startsWith('application/json')) return this.document;
    return send(res, this.files.page('apiDocs'), etag, this.files.missing);
  }

  @Get('openapi.json')
  json(): Record<string, unknown> {
    return this.document;
  }

  @Get('index.html')
  html(@Headers('if-none-match') etag: string | undefined, @Res({ passthrough: true }) res: FastifyReply): Buffer | string {
    return send(res, this.files.page('apiDocs'), etag, this.files.missing);
  }
}

import { Controller, Get, Header, Headers, Inject, OnApplicationBootstrap, Query, Res } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import type { FastifyReply } from 'fastify';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { buildV2OpenApi, routeInfo, V2RouteInfo } from './v2-openapi';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The v2 API's OpenAPI 3.1 document, generated at start-up from the routes as Nest
 * registered them (paths, verbs, statuses, the zod schemas of bodies and queries, scopes),
 * so it cannot drift from the code; and a page that shows it without any script from the
 * internet.
 */
@Controller('docs/api/v2')
export class V2DocsController implements OnApplicationBootstrap {
  private document: Record<string, unknown> = {};
  private page = '';

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
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
    this.document = buildV2OpenApi(routes, base);
    this.page = renderPage(this.document);
  }

  @Get()
  show(
    @Headers('accept') accept: string | undefined,
    @Query('format') format: string | undefined,
    @Res({ passthrough: true }) res: FastifyReply,
  ): string | Record<string, unknown> {
    if (format === 'json' || (accept ?? '').startsWith('application/json')) return this.document;
    res.type('text/html; charset=utf-8');
    return this.page;
  }

  @Get('openapi.json')
  json(): Record<string, unknown> {
    return this.document;
  }

  // Fastify answers strings as text/plain: the page says what it is.
  @Get('index.html')
  @Header('Content-Type', 'text/html; charset=utf-8')
  html(): string {
    return this.page;
  }
}

function renderPage(doc: Record<string, unknown>): string {
  const info = doc.info as { title: string; description: string };
  const paths = doc.paths as Record<string, Record<string, { summary?: string; description?: string; parameters?: Array<{ name: string; in: string; description?: string; schema?: unknown }>; requestBody?: { content: Record<string, { schema: unknown }> }; responses: Record<string, { description: string }> }>>;
  const ops = Object.entries(paths ?? {}).flatMap(([path, verbs]) => Object.entries(verbs).map(([verb, op]) => {
    const params = (op.parameters ?? []).map((p) => `<li><code>${esc(p.name)}</code> (${esc(p.in)}) ${esc(p.description ?? '')} <code>${esc(JSON.stringify(p.schema ?? {}))}</code></li>`).join('');
    const body = op.requestBody ? Object.entries(op.requestBody.content).map(([type, c]) => `<p>Body (${esc(type)}):</p><pre>${esc(JSON.stringify(c.schema, null, 2))}</pre>`).join('') : '';
    const responses = Object.entries(op.responses).map(([code, r]) => `<li><b>${esc(code)}</b> ${esc(r.description)}</li>`).join('');
    return `<section id="${esc(`${verb}-${path}`)}"><h2><span class="verb">${esc(verb.toUpperCase())}</span> <code>${esc(path)}</code></h2>
<p>${esc(op.summary ?? '')}. ${esc(op.description ?? '')}</p>${params ? `<ul>${params}</ul>` : ''}${body}<ul>${responses}</ul></section>`;
  })).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(info.title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}section{border-top:1px solid #ddd;padding:.5rem 0}
.verb{display:inline-block;min-width:4.5rem;color:#fff;background:#345;border-radius:4px;padding:0 .4rem;text-align:center}pre{background:#f6f6f6;padding:.5rem;overflow:auto}</style>
</head><body><h1>${esc(info.title)}</h1><p>${esc(info.description)}</p><p>Machine-readable: <a href="/docs/api/v2/openapi.json">openapi.json</a> (OpenAPI 3.1).</p>
${ops}</body></html>`;
}

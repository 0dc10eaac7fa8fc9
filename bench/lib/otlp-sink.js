// BENCH_TRACING=1: an OTLP/HTTP receiver in the bench process, so that the services record
// and export every span (OTEL_EXPORTER_OTLP_ENDPOINT) as they would to a collector; the
// spans are counted and dropped. The bench then measures what tracing costs the services.
const http = require('node:http');

async function startOtlpSink() {
  const sink = { requests: 0, spans: 0, bytes: 0, url: '', close: () => Promise.resolve() };
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      sink.requests++;
      sink.bytes += Buffer.byteLength(body);
      // One "kind" per span in OTLP's JSON: counted without parsing megabytes per second.
      sink.spans += (body.match(/"kind":/g) || []).length;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  sink.url = `http://127.0.0.1:${server.address().port}`;
  sink.close = () => new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
  return sink;
}

module.exports = { startOtlpSink };

// The API reference page: Swagger UI (bundled locally, nothing from another origin) over
// the gateway's OpenAPI document. A file of its own: the page's CSP allows no inline script.
declare const SwaggerUIBundle: (options: Record<string, unknown>) => unknown;

SwaggerUIBundle({
  url: '/docs/api/v2/openapi.json',
  dom_id: '#api-reference',
  // Deep links put a link inside each operation's toggle button: an interactive control
  // nested in another, which screen readers cannot reach.
  deepLinking: false,
  // "Try it out" sends requests from this page, signed in by the console's session cookie.
  withCredentials: true,
  onComplete: () => {
    // Swagger UI's server picker has no accessible name.
    document.querySelector('#servers')?.setAttribute('aria-label', 'Server');
  },
});

// The system's own interfaces used for setup: the v1 HTTP API and the token CLI.
const { execFile } = require('node:child_process');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'apps', 'rooms', 'apps', 'rooms', 'src', 'cli.js');

/** Calls a v1 method like the original clients: query string for GET, form body for POST. */
async function v1(baseUrl, verb, method, params) {
  const form = new URLSearchParams(params).toString();
  const url = verb === 'GET' ? `${baseUrl}/v1/${method}?${form}` : `${baseUrl}/v1/${method}`;
  const res = await fetch(url, {
    method: verb,
    headers: verb === 'GET' ? {} : { 'content-type': 'application/x-www-form-urlencoded' },
    body: verb === 'GET' ? undefined : form,
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${verb} /v1/${method} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** `cli token create --type <kind>`: the token alone on stdout (`extra`: e.g. `--user` of a personal token). */
function createToken(env, kind = 'admin', label = 'bench', extra = []) {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [CLI, 'token', 'create', '--type', kind, '--label', label, ...extra], { cwd: ROOT, env }, (err, stdout, stderr) => {
      const token = stdout.trim();
      if (err || !/^\S+$/.test(token)) reject(new Error(`token CLI failed: ${(stderr || String(err)).trim().slice(0, 500)}`));
      else resolve(token);
    });
  });
}

module.exports = { ROOT, CLI, v1, createToken };

// The development key that seals secrets at rest when SECRETS_KEYS is not set (npm start):
// made once in data/secrets-keys (git-ignored, readable by its owner only), then reused, so
// the secrets stored with it keep opening. Not for production: there, SECRETS_KEYS (or
// SECRETS_KEYS_FILE) comes from the operator's secret store (README: Secrets at rest).
const fs = require('node:fs');
const path = require('node:path');
const { randomBytes } = require('node:crypto');

/** The key file's path, and whether it was made now. Never prints the key. */
function ensureDevSecretsKeys(root) {
  const file = path.join(root, 'data', 'secrets-keys');
  if (fs.existsSync(file)) return { file, created: false };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  try {
    // `wx`: two launchers starting at once do not overwrite each other's key.
    fs.writeFileSync(file, `dev:${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if (err.code !== 'EEXIST') throw err;
    return { file, created: false };
  }
  return { file, created: true };
}

module.exports = { ensureDevSecretsKeys };

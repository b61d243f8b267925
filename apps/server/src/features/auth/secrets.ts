import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { boxKeyPairFromSecret, decodeBase64, encodeBase64, type BoxKeyPair } from '@latchkey/shared';

/** The server's signing key for session tokens and its key pair for sealed payloads. */
export interface Secrets {
  jwtKey: Uint8Array;
  seal: BoxKeyPair;
}

interface StoredSecrets {
  jwtSecret: string;
  sealSecretKey: string;
}

/**
 * Secrets come from the environment when given (required when several servers share one
 * database), else from `secrets.json` in the data folder, created on first start.
 */
export function loadSecrets(options: {
  dataDir: string;
  jwtSecret?: string;
  sealSecretKey?: string;
}): Secrets {
  let stored: StoredSecrets | null = null;
  if (!options.jwtSecret || !options.sealSecretKey)
    stored = readOrCreate(path.join(options.dataDir, 'secrets.json'));
  const jwtSecret = options.jwtSecret ?? stored!.jwtSecret;
  const sealSecretKey = options.sealSecretKey ?? stored!.sealSecretKey;
  return {
    jwtKey: new TextEncoder().encode(jwtSecret),
    seal: boxKeyPairFromSecret(decodeBase64(sealSecretKey)),
  };
}

function readOrCreate(file: string): StoredSecrets {
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')) as StoredSecrets;
  const secrets: StoredSecrets = {
    jwtSecret: crypto.randomBytes(48).toString('base64url'),
    sealSecretKey: encodeBase64(crypto.randomBytes(32)),
  };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // 'wx' fails if another process created it first; then read theirs so both agree.
  try {
    fs.writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600, flag: 'wx' });
    return secrets;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      return JSON.parse(fs.readFileSync(file, 'utf8')) as StoredSecrets;
    }
    throw error;
  }
}

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// One door for accounts (issue 16; docs/decisions.md "One door for accounts; a guest link proves
// nothing"): features/auth/accounts.ts is the only code that inserts into `users`, and only the auth
// feature sets a password or confirms an address. Before it, the invitations, the resellers, the
// share-lock activation and the demo seeds each wrote accounts their own way, and the share-lock one
// made confirmed accounts with a password someone else chose. This test reads the server's source,
// so the next feature that writes accounts another way fails here, named, without anyone
// remembering to add a check.

const SRC = path.resolve(__dirname, '../src');
const ACCOUNTS_MODULE = 'features/auth/accounts.ts';

/** An insert into the accounts table, by the query builder or in raw SQL. */
const USERS_INSERT = [
  /insertInto\(\s*['"`]users['"`]\s*\)/,
  /insert\s+into\s+["'`]?users["'`]?[\s(]/i,
  /into\(\s*['"`]users['"`]\s*\)/,
];
/** Setting a password or confirming an address (an object key, or raw SQL's `set`). */
const ACCOUNT_SECRET_WRITE = [
  /\bpassword_hash\s*:/,
  /\bemail_verified_at\s*:/,
  /set\s+["'`]?(password_hash|email_verified_at)["'`]?\s*=/i,
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|mts|cts|js)$/.test(entry.name) ? [full] : [];
  });
}

const files = sourceFiles(SRC).map((full) => ({
  file: path.relative(SRC, full).split(path.sep).join('/'),
  text: readFileSync(full, 'utf8'),
}));

/** Files (relative to src) whose text matches any pattern, with the first matching line. */
function writersOf(patterns: RegExp[], allowed: (file: string) => boolean): string[] {
  return files
    .filter(({ file }) => !allowed(file))
    .flatMap(({ file, text }) => {
      const line = text.split('\n').findIndex((l) => patterns.some((p) => p.test(l)));
      return line === -1 ? [] : [`${file}:${line + 1}`];
    });
}

describe('one door for accounts', () => {
  it('finds the accounts module’s own insert (the scan works)', () => {
    expect(writersOf(USERS_INSERT, (file) => file !== ACCOUNTS_MODULE)).toHaveLength(1);
  });

  it('no module but features/auth/accounts.ts inserts into users', () => {
    // Migrations create the table; they write no rows.
    const writers = writersOf(
      USERS_INSERT,
      (file) => file === ACCOUNTS_MODULE || file.startsWith('db/migrations/'),
    );
    expect(
      writers,
      `these write the users table outside ${ACCOUNTS_MODULE}: use the accounts module`,
    ).toEqual([]);
  });

  it('no module outside features/auth sets a password or confirms an address', () => {
    const writers = writersOf(
      ACCOUNT_SECRET_WRITE,
      (file) =>
        file.startsWith('features/auth/') ||
        file === 'db/schema.ts' ||
        file.startsWith('db/migrations/') ||
        // An API key's stand-in for "the person acting": a row built in memory with no password and
        // never stored (the test above holds that nothing but accounts.ts inserts into users).
        file === 'base/identity/api-key-auth.ts',
    );
    expect(writers, 'these set password_hash or email_verified_at outside features/auth').toEqual([]);
  });
});

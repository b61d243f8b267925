import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * Issue 16, defect 3 as a mechanism: mail has one door, `sendMail` (base/mail/send-mail.ts),
 * which applies the limits of the mail's kind. On main before the fix, 25 places outside the mail
 * feature queued mail with `enqueueMail` or could have written the outbox themselves, and stay mail
 * went around the throttle. This test reads every server source file: outside base/mail none
 * may mention `enqueueMail` or insert into `mail_outbox`, so a new feature that does fails here,
 * naming the file. The lint rule (eslint.config.js) says the same while editing; the second test
 * proves that it fires.
 */

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sourceRoot = path.join(serverRoot, 'src');
const mailFeature = path.join(sourceRoot, 'base', 'mail') + path.sep;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|js|mjs|cjs)$/.test(entry.name) ? [full] : [];
  });
}

/** What only the mail feature may do: queue with enqueueMail, or write the outbox table. */
const FORBIDDEN = [
  { what: 'uses enqueueMail', pattern: /\benqueueMail\b/ },
  { what: 'inserts into mail_outbox', pattern: /insertInto\(\s*['"`]mail_outbox['"`]/ },
  { what: 'writes mail_outbox in SQL', pattern: /insert\s+into\s+["`]?mail_outbox\b/i },
];

describe('one door for mail', () => {
  it('no module outside base/mail enqueues mail or writes the outbox', () => {
    const files = sourceFiles(sourceRoot);
    expect(files.length).toBeGreaterThan(50); // the scan found the sources
    const offences = files
      .filter((file) => !file.startsWith(mailFeature))
      .filter((file) => !file.includes(`${path.sep}migrations${path.sep}`))
      .flatMap((file) => {
        const text = fs.readFileSync(file, 'utf8');
        return FORBIDDEN.filter(({ pattern }) => pattern.test(text)).map(
          ({ what }) =>
            `${path.relative(serverRoot, file)} ${what}: send mail with sendMail (base/mail/send-mail.ts)`,
        );
      });
    expect(offences).toEqual([]);
  });

  it('the lint rule refuses enqueueMail outside the mail feature', async () => {
    const eslint = new ESLint({ cwd: path.resolve(serverRoot, '../..') });
    const [result] = await eslint.lintText(
      "import { enqueueMail } from '../mail/mail.repository';\nexport const door = enqueueMail;\n",
      { filePath: path.join(sourceRoot, 'features', 'stays', 'a-new-feature.ts') },
    );
    expect(result!.messages.map((m) => m.ruleId)).toContain('no-restricted-imports');
    const [inside] = await eslint.lintText(
      "import { enqueueMail } from './mail.repository';\nexport const door = enqueueMail;\n",
      { filePath: path.join(mailFeature, 'a-new-door.ts') },
    );
    expect(inside!.messages.map((m) => m.ruleId)).not.toContain('no-restricted-imports');
  }, 60_000); // loading the lint configuration takes seconds on a busy machine
});

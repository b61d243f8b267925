import type { Database } from './db/database';
import { DEMO_RESELLER_ACCOUNTS } from './demo/demo-billing';
import { DEMO_ACCOUNTS } from './demo/seed-demo';

export interface SignIn {
  who: string;
  email: string;
  password: string;
}

/** The demo's sign-ins people start with (README, "Demo accounts"), in the order they are tried. */
const DEMO_SIGN_INS: readonly SignIn[] = [
  { who: 'Portal admin', ...DEMO_ACCOUNTS.admin },
  { who: 'Basic user', ...DEMO_ACCOUNTS.user },
  { who: 'Platform staff', ...DEMO_ACCOUNTS.staff },
  { who: 'Reseller', ...DEMO_RESELLER_ACCOUNTS.reseller },
];

/**
 * The demo's sign-ins while its accounts are there: on the first start that made them and every
 * start after; none when the database had people before (the demo is then never made).
 */
export async function demoSignIns(db: Database): Promise<SignIn[]> {
  const demoAdmin = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', DEMO_ACCOUNTS.admin.email)
    .executeTakeFirst();
  return demoAdmin ? [...DEMO_SIGN_INS] : [];
}

/**
 * The block a person at a terminal sees last: where to open the portal, where locks connect, and
 * the demo's sign-ins, in aligned columns.
 */
export function startupSummary(options: {
  url: string;
  /** Where the server listens, when PUBLIC_URL names another address. */
  listening: string | null;
  lockBrokerUrl: string | null;
  signIns: readonly SignIn[];
}): string {
  const lines = [
    '',
    `  Latchkey is running at ${options.url}${options.listening ? ` (listening at ${options.listening})` : ''}`,
  ];
  if (options.lockBrokerUrl) lines.push(`  Locks connect to ${options.lockBrokerUrl}`);
  if (options.signIns.length > 0) {
    const whoWidth = Math.max(...options.signIns.map((s) => s.who.length));
    const emailWidth = Math.max(...options.signIns.map((s) => s.email.length));
    lines.push('', '  Demo sign-ins (email, password):');
    for (const signIn of options.signIns) {
      lines.push(
        `    ${signIn.who.padEnd(whoWidth)}  ${signIn.email.padEnd(emailWidth)}  ${signIn.password}`,
      );
    }
  }
  lines.push('', '  Details in the log with LOG_LEVEL=info. Stop with Ctrl+C.', '');
  return `${lines.join('\n')}\n`;
}

import js from '@eslint/js';
import globals from 'globals';
import latchkey from './scripts/eslint-import-cycles.js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
      'packages/client/src/schema.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Migrations are frozen in time and must not depend on today's table types: Kysely<any>.
    files: [
      'apps/server/src/db/migrations/**',
      'apps/server/src/db/migrate.ts',
      'apps/server/src/db/column-types.ts',
    ],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Doors that only one feature may open (docs/decisions.md "Safety as mechanisms"): a feature
    // that forgets a habit cannot go around them. Inside the owning feature the imports are
    // relative ('./mail.repository') and do not match these patterns.
    files: ['apps/server/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/mail/mail.repository'],
              importNames: ['enqueueMail'],
              message: "Mail goes out through sendMail (base/mail), which applies its kind's limits.",
            },
            {
              group: ['**/auth/users.repository'],
              importNames: ['insertUser'],
              message: 'Accounts are created by the accounts module (features/auth) only.',
            },
          ],
        },
      ],
    },
  },
  {
    // One-way layers (docs/ARCHITECTURE.md, "One-way imports"): no import circle in the server or
    // the web app, type-only imports and dynamic import() included (scripts/eslint-import-cycles.js
    // reads the whole graph once per run, about a second). A feature that needs another's outcome
    // gets it through an entry the owner exports, or a handler it registers (payments).
    files: ['apps/server/src/**/*.ts', 'apps/web/src/**/*.{ts,tsx}'],
    plugins: { latchkey },
    rules: { 'latchkey/no-import-cycle': 'error', 'latchkey/one-way-features': 'error' },
  },
  {
    // One clock, one format (docs/decisions.md, "One clock, one format (issue 19)"): dates and times
    // on screens, in mails and on invoices are written by packages/shared/src/time-format.ts (and
    // the web app's lib/format.ts over it), never formatted on the spot. Reading the browser's zone
    // (Intl.DateTimeFormat().resolvedOptions()) is not formatting and stays allowed.
    files: ['apps/server/src/**/*.ts', 'apps/web/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            ":not(MemberExpression[property.name='resolvedOptions']) > :matches(NewExpression, CallExpression)[callee.object.name='Intl'][callee.property.name='DateTimeFormat']",
          message:
            'Dates and times go through the shared format (formatDate, formatTime, formatDateTime, formatRange… from @latchkey/shared, or @/lib/format in the web app).',
        },
        {
          selector: 'CallExpression[callee.property.name=/^to(Locale(Date|Time)?|UTC|Date|Time)String$/]',
          message:
            'Dates and times go through the shared format (formatDate, formatTime, formatDateTime, formatRange… from @latchkey/shared, or @/lib/format in the web app).',
        },
      ],
    },
  },
  {
    // One way to start a user-event session in the web tests: setupUser() (apps/web/src/testing/user.ts),
    // which types without a timer per key.
    files: ['apps/web/src/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='userEvent'][callee.property.name='setup']",
          message: 'Start a user-event session with setupUser() from @/testing/user (no timer per key).',
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
);

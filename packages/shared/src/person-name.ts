/**
 * A person as screens, mails, exports and change-log entries name them: first and last name, else
 * their email address (a person invited by address alone has no name yet), else nothing.
 */
export function personName(
  firstName: string | null | undefined,
  lastName: string | null | undefined,
  email: string | null | undefined,
): string {
  return [firstName, lastName].filter(Boolean).join(' ') || email || '';
}

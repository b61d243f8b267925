import userEvent from '@testing-library/user-event';

/**
 * A user-event session for a test, typing without a timer between keys (`delay: null`): user-event's
 * default (0) waits a setTimeout after every key, which the web tests spent on each character typed.
 * eslint.config.js keeps other tests from calling userEvent.setup themselves.
 */
export function setupUser() {
  return userEvent.setup({ delay: null });
}

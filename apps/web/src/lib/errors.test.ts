import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { errorMessage, sentence } from './errors';

describe('error text', () => {
  it('starts a plain message with a capital', () => {
    expect(sentence('must be an email address')).toBe('Must be an email address');
    expect(sentence('  already taken ')).toBe('Already taken');
  });

  it('leaves an email, a name or any other data at the start as the person typed it', () => {
    expect(errorMessage(new ApiError(409, 'conflict', 'user@demo.latchkey.dev is already a member'))).toBe(
      'user@demo.latchkey.dev is already a member',
    );
    expect(sentence('bike-room is offline')).toBe('bike-room is offline');
    expect(sentence('iPhone 15 is not supported')).toBe('iPhone 15 is not supported');
  });
});

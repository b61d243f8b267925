import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppProvider } from '@/app/provider';
import { MemberSince } from './member-badges';

// No portal is open here, so the dates are on the test machine's clock: noon UTC is the same day
// from UTC-11 to UTC+11.
const joinedAt = '2026-11-28T12:00:00.000Z';

describe('MemberSince', () => {
  it('writes a date for a member who joined and for one invited, the exact time in the title', () => {
    render(
      <AppProvider env="test">
        <ul>
          <li>
            <MemberSince member={{ status: 'active', joinedAt }} />
          </li>
          <li>
            <MemberSince member={{ status: 'invited', joinedAt }} />
          </li>
        </ul>
      </AppProvider>,
    );
    const [joined, invited] = screen.getAllByRole('listitem');
    expect(joined).toHaveTextContent(/^Nov 28, 2026$/);
    expect(invited).toHaveTextContent(/^Invited Nov 28, 2026$/);
    expect(joined!.querySelector('time')).toHaveAttribute('dateTime', joinedAt);
    expect(joined!.querySelector('time')?.getAttribute('title')).toMatch(/^Nov 28, 2026, \d{2}:00$/);
    expect(invited!.querySelector('time')?.getAttribute('title')).toMatch(/^Nov 28, 2026, \d{2}:00$/);
    expect(screen.queryByText(/ago$/)).not.toBeInTheDocument();
  });
});

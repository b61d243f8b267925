import type { Schedule } from '@latchkey/shared';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AppProvider } from '@/app/provider';
import { ApiError } from '@/lib/api-client';
import { setupUser } from '@/testing/user';
import { ScheduleEditor } from './schedule-editor';
import { scheduleErrorsFrom } from './schedule-form';

function renderEditor(value: Schedule | null, onSubmit = vi.fn()) {
  render(
    <AppProvider env="test">
      <ScheduleEditor value={value} timeZone="Europe/Paris" onSubmit={onSubmit} />
    </AppProvider>,
  );
  return { onSubmit, user: setupUser() };
}

const save = () => screen.getByRole('button', { name: 'Save schedule' });

describe('ScheduleEditor', () => {
  it('emits null for "Any time"', async () => {
    const { onSubmit, user } = renderEditor(null);
    expect(screen.getByRole('switch', { name: /Any time/ })).toBeChecked();
    expect(screen.queryByRole('group', { name: 'Window 1' })).not.toBeInTheDocument();
    await user.click(save());
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith(null));
  });

  it('builds windows from days, times and dates', async () => {
    const { onSubmit, user } = renderEditor(null);
    await user.click(screen.getByRole('switch', { name: /Any time/ }));
    // A new window starts as Mon–Fri 09:00–17:00, shown Monday first.
    const first = screen.getByRole('group', { name: 'Window 1' });
    const days = within(first).getByRole('group', { name: 'Days' });
    expect(
      within(days)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']);
    await user.click(within(days).getByRole('button', { name: 'Friday' }));
    expect(within(days).getByRole('button', { name: 'Friday' })).toHaveAttribute('aria-pressed', 'false');
    fireEvent.change(within(first).getByLabelText(/^End/), { target: { value: '18:30' } });

    await user.click(screen.getByRole('button', { name: 'Add window' }));
    const second = screen.getByRole('group', { name: 'Window 2' });
    const secondDays = within(second).getByRole('group', { name: 'Days' });
    for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday']) {
      await user.click(within(secondDays).getByRole('button', { name: day }));
    }
    await user.click(within(secondDays).getByRole('button', { name: 'Saturday' }));
    fireEvent.change(within(second).getByLabelText(/^Start/), { target: { value: '22:00' } });
    fireEvent.change(within(second).getByLabelText(/^End/), { target: { value: '06:00' } });
    expect(within(second).getByText('Overnight: ends at 06:00 the next day.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Add window' }));
    const third = screen.getByRole('group', { name: 'Window 3' });
    await user.click(within(third).getByRole('switch', { name: 'All day' }));

    fireEvent.change(screen.getByLabelText(/^Start date/), { target: { value: '2026-01-05' } });
    fireEvent.change(screen.getByLabelText(/^End date/), { target: { value: '2026-03-01' } });
    await user.click(save());
    await waitFor(() =>
      expect(onSubmit).toHaveBeenCalledWith({
        windows: [
          { days: [1, 2, 3, 4], start: '09:00', end: '18:30' },
          { days: [5, 6], start: '22:00', end: '06:00' },
          { days: [1, 2, 3, 4, 5], start: '00:00', end: '24:00' },
        ],
        startDate: '2026-01-05',
        endDate: '2026-03-01',
      }),
    );
  });

  it('refuses a window whose end equals its start, and a window without days', async () => {
    const { onSubmit, user } = renderEditor({ windows: [{ days: [3], start: '09:00', end: '17:00' }] });
    const window = screen.getByRole('group', { name: 'Window 1' });
    fireEvent.change(within(window).getByLabelText(/^End/), { target: { value: '09:00' } });
    await user.click(within(window).getByRole('button', { name: 'Wednesday' }));
    await user.click(save());
    expect(
      await within(window).findByText('End must differ from start. For the whole day, turn on "All day".'),
    ).toBeInTheDocument();
    expect(within(window).getByText('Pick at least one day')).toBeInTheDocument();
    expect(within(window).getByRole('group', { name: 'Days' })).toHaveAccessibleDescription(
      'Pick at least one day',
    );
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('refuses an end date before the start date', async () => {
    const { onSubmit, user } = renderEditor({
      windows: [{ days: [1], start: '08:00', end: '12:00' }],
      startDate: '2026-05-10',
      endDate: '2026-05-01',
    });
    await user.click(save());
    expect(await screen.findByText('The end date must not be before the start date')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('shows a saved all-day and a midnight window, and keeps their meaning', async () => {
    const { onSubmit, user } = renderEditor({
      windows: [
        { days: [0, 6], start: '00:00', end: '24:00' },
        { days: [5], start: '18:00', end: '24:00' },
      ],
    });
    expect(
      within(screen.getByRole('group', { name: 'Window 1' })).getByRole('switch', { name: 'All day' }),
    ).toBeChecked();
    const second = screen.getByRole('group', { name: 'Window 2' });
    expect(within(second).getByLabelText(/^End/)).toHaveValue('00:00');
    expect(within(second).getByText('Until midnight.')).toBeInTheDocument();
    await user.click(save());
    await waitFor(() =>
      expect(onSubmit).toHaveBeenCalledWith({
        windows: [
          { days: [0, 6], start: '00:00', end: '24:00' },
          { days: [5], start: '18:00', end: '00:00' },
        ],
      }),
    );
  });

  it('removes windows but always keeps one', async () => {
    const { user } = renderEditor({
      windows: [
        { days: [1], start: '08:00', end: '12:00' },
        { days: [2], start: '13:00', end: '17:00' },
      ],
    });
    await user.click(screen.getByRole('button', { name: 'Remove window 1' }));
    expect(screen.queryByRole('group', { name: 'Window 2' })).not.toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Window 1' })).getByLabelText(/^Start/)).toHaveValue(
      '13:00',
    );
    expect(screen.getByRole('button', { name: 'Remove window 1' })).toBeDisabled();
  });

  it('shows field errors the caller answers, and an error it throws', async () => {
    const onSubmit = vi
      .fn()
      .mockResolvedValueOnce({ 'windows.0.start': 'Start is taken' })
      .mockRejectedValueOnce(new ApiError(400, 'bad_request', 'grace has no access to this lock'));
    const { user } = renderEditor({ windows: [{ days: [1], start: '08:00', end: '12:00' }] }, onSubmit);
    await user.click(save());
    expect(await screen.findByText('Start is taken')).toBeInTheDocument();
    await user.click(save());
    expect(await screen.findByRole('alert')).toHaveTextContent('Grace has no access to this lock');
  });
});

describe('scheduleErrorsFrom', () => {
  it('finds the field of a server detail', () => {
    const error = new ApiError(400, 'bad_request', 'Invalid input', [
      { path: 'body.schedule.windows.1.end', message: 'end must differ from start' },
      { path: 'schedule/endDate', message: 'endDate must not be before startDate' },
      { path: 'userId', message: 'is unknown' },
    ]);
    expect(scheduleErrorsFrom(error)).toEqual({
      'windows.1.end': 'End must differ from start. For the whole day, turn on "All day".',
      endDate: 'The end date must not be before the start date',
    });
  });
});

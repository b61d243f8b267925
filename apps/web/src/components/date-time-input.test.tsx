import { useForm } from '@mantine/form';
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppProvider } from '@/app/provider';
import { dateTimeFields } from '@/testing/date-time';
import { DateTimeInput, joinDateTime, splitDateTime } from './date-time-input';

describe('splitDateTime and joinDateTime', () => {
  it('read a datetime-local value as a date and a time, and join them back as typed', () => {
    expect(splitDateTime('2026-12-01T09:30')).toEqual({ date: '2026-12-01', time: '09:30' });
    expect(splitDateTime('2026-12-01T09:30:00')).toEqual({ date: '2026-12-01', time: '09:30' });
    expect(splitDateTime('')).toEqual({ date: '', time: '' });
    expect(joinDateTime('2026-12-01', '09:30')).toBe('2026-12-01T09:30');
    expect(joinDateTime('', '')).toBe('');
    // Half typed: kept, so the form can say what is missing.
    expect(joinDateTime('2026-12-01', '')).toBe('2026-12-01T');
    expect(splitDateTime(joinDateTime('', '9'))).toEqual({ date: '', time: '9' });
  });
});

function Form({ error }: { error?: string }) {
  const form = useForm({ mode: 'controlled', initialValues: { from: '2026-12-01T15:00' } });
  return (
    <>
      <DateTimeInput
        label="Valid from"
        description="On the lock's clock (Europe/Rome)."
        {...form.getInputProps('from')}
        error={error}
      />
      <output>{form.values.from}</output>
      <button type="button" onClick={() => form.setFieldValue('from', '2027-01-02T08:05')}>
        Load
      </button>
    </>
  );
}

describe('DateTimeInput', () => {
  it('shows a date field and a 24-hour time field for one value, named after its label', () => {
    render(
      <AppProvider env="test">
        <Form />
      </AppProvider>,
    );
    const { date, time } = dateTimeFields('Valid from');
    expect(date).toHaveAttribute('type', 'date');
    expect(time).toHaveAttribute('type', 'text');
    expect(date).toHaveValue('2026-12-01');
    expect(time).toHaveValue('15:00');
    expect(screen.getByRole('group', { name: 'Valid from' })).toContainElement(time);
    expect(date).toHaveAccessibleDescription("On the lock's clock (Europe/Rome).");

    fireEvent.change(time, { target: { value: '930' } });
    fireEvent.blur(time);
    expect(time).toHaveValue('09:30');
    expect(screen.getByRole('status')).toHaveTextContent('2026-12-01T09:30');
    fireEvent.change(date, { target: { value: '2026-12-24' } });
    expect(screen.getByRole('status')).toHaveTextContent('2026-12-24T09:30');

    // Emptied: no value at all, not a half one.
    fireEvent.change(date, { target: { value: '' } });
    fireEvent.change(time, { target: { value: '' } });
    expect(screen.getByRole('status')).toHaveTextContent(/^$/);

    // Set from outside (a record loaded, a reset): both fields follow.
    fireEvent.click(screen.getByRole('button', { name: 'Load' }));
    expect(date).toHaveValue('2027-01-02');
    expect(time).toHaveValue('08:05');
  });

  it('marks both fields invalid and describes them with the error', () => {
    render(
      <AppProvider env="test">
        <Form error="Valid from must be a date and time" />
      </AppProvider>,
    );
    const { date, time } = dateTimeFields('Valid from');
    for (const field of [date, time]) {
      expect(field).toHaveAttribute('aria-invalid', 'true');
      expect(field).toHaveAccessibleDescription(/Valid from must be a date and time/);
    }
  });
});

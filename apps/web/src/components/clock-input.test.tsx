import { useForm } from '@mantine/form';
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppProvider } from '@/app/provider';
import { ClockInput, readClock } from './clock-input';

describe('readClock', () => {
  it('reads a typed time as HH:MM on the 24-hour clock', () => {
    expect(readClock('15:00')).toBe('15:00');
    expect(readClock(' 9:05 ')).toBe('09:05');
    expect(readClock('905')).toBe('09:05');
    expect(readClock('2315')).toBe('23:15');
    expect(readClock('9')).toBe('09:00');
    expect(readClock('00:00')).toBe('00:00');
  });

  it('reads nothing that is no time of a day', () => {
    for (const text of ['', '24:00', '12:60', '9:5', '3:00 PM', 'noon', '12345']) {
      expect(readClock(text), text).toBeNull();
    }
  });
});

function Form() {
  const form = useForm({ mode: 'controlled', initialValues: { start: '15:00' } });
  return (
    <>
      <ClockInput label="From" {...form.getInputProps('start')} />
      <output>{form.values.start}</output>
    </>
  );
}

describe('ClockInput', () => {
  it('shows 24-hour text, not a 12-hour browser field, and tidies what was typed when left', () => {
    render(
      <AppProvider env="test">
        <Form />
      </AppProvider>,
    );
    const field = screen.getByLabelText('From');
    expect(field).toHaveAttribute('type', 'text');
    expect(field).toHaveValue('15:00');
    fireEvent.change(field, { target: { value: '930' } });
    expect(screen.getByRole('status')).toHaveTextContent('930');
    fireEvent.blur(field);
    expect(field).toHaveValue('09:30');
    expect(screen.getByRole('status')).toHaveTextContent('09:30');
    // Not a time: left as typed, for the form to refuse.
    fireEvent.change(field, { target: { value: '3 PM' } });
    fireEvent.blur(field);
    expect(field).toHaveValue('3 PM');
  });
});

import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-client';
import { useFormMutation, type FormMutationOptions } from './forms';

interface Values {
  name: string;
  email: string;
}

const LABELS = { name: 'Name', email: 'Email' };

/** A form with the hook's submit handler, the options' `run` failing with `error`. */
function submitFailing(error: unknown, options: Partial<FormMutationOptions<Values, keyof Values>> = {}) {
  const { result } = renderHook(() => {
    const form = useForm<Values>({ initialValues: { name: '', email: '' } });
    const { run } = useFormMutation(form, {
      labels: LABELS,
      otherwise: 'Could not save',
      ...options,
      run: () => Promise.reject(error),
    });
    return { form, run };
  });
  return {
    errors: () => result.current.form.errors,
    submit: () => act(() => result.current.run({ name: 'Ada', email: 'ada@example.com' })),
  };
}

const invalid = (...details: { path: string; message: string }[]) =>
  new ApiError(400, 'bad_request', 'body/name: must not be empty', details);

afterEach(() => vi.restoreAllMocks());

describe('useFormMutation', () => {
  it('runs the call with the values and shows nothing when it succeeds', async () => {
    const show = vi.spyOn(notifications, 'show');
    const run = vi.fn(() => Promise.resolve());
    const { result } = renderHook(() => {
      const form = useForm<Values>({ initialValues: { name: '', email: '' } });
      return { form, ...useFormMutation(form, { labels: LABELS, otherwise: 'Could not save', run }) };
    });
    await act(() => result.current.run({ name: 'Ada', email: 'ada@example.com' }));
    expect(run).toHaveBeenCalledWith({ name: 'Ada', email: 'ada@example.com' });
    expect(result.current.form.errors).toEqual({});
    expect(show).not.toHaveBeenCalled();
  });

  it('submits the form with its values once they are valid', async () => {
    const run = vi.fn(() => Promise.resolve());
    const { result } = renderHook(() => {
      const form = useForm<Values>({
        initialValues: { name: '', email: 'ada@example.com' },
        validate: { name: (value) => (value ? null : 'Enter a name') },
      });
      return { form, ...useFormMutation(form, { labels: LABELS, otherwise: 'Could not save', run }) };
    });
    act(() => result.current.submit());
    expect(run).not.toHaveBeenCalled();
    expect(result.current.form.errors).toEqual({ name: 'Enter a name' });

    act(() => result.current.form.setFieldValue('name', 'Ada'));
    await act(async () => result.current.submit());
    expect(run).toHaveBeenCalledWith({ name: 'Ada', email: 'ada@example.com' });
  });

  it("puts a 400 answer's details under the fields they name, with the field's label", async () => {
    const show = vi.spyOn(notifications, 'show');
    const form = submitFailing(
      invalid(
        { path: 'body/name', message: 'must not be empty' },
        { path: 'body.email', message: 'must be an email address' },
        { path: 'body/name', message: 'is too long' },
        { path: 'colour', message: 'is not a field here' },
      ),
    );
    await form.submit();
    expect(form.errors()).toEqual({
      name: 'Name must not be empty',
      email: 'Email must be an email address',
    });
    expect(show).not.toHaveBeenCalled();
  });

  it('shows the field errors as the form adjusts them', async () => {
    const form = submitFailing(invalid({ path: 'name', message: 'must not be empty' }), {
      adjustErrors: (errors, error) => ({ ...errors, email: `${error.details.length} problem` }),
    });
    await form.submit();
    expect(form.errors()).toEqual({ name: 'Name must not be empty', email: '1 problem' });
  });

  it('puts an answer with a place of its own under its field, or hands it to its function', async () => {
    const taken = submitFailing(new ApiError(409, 'conflict', 'that email is taken'), {
      onStatus: { 409: 'email' },
    });
    await taken.submit();
    expect(taken.errors()).toEqual({ email: 'That email is taken' });

    const seen = vi.fn();
    const limited = submitFailing(new ApiError(402, 'plan_limit', 'your plan holds 3 locks'), {
      onStatus: { 402: seen },
    });
    await limited.submit();
    expect(seen).toHaveBeenCalledWith('Your plan holds 3 locks', expect.any(ApiError));
    expect(limited.errors()).toEqual({});
  });

  it('hands a 400 answer without field details to its status, and not one with them', async () => {
    const onBadRequest = vi.fn();
    const general = submitFailing(invalid({ path: 'body', message: 'dates overlap' }), {
      onStatus: { 400: onBadRequest },
    });
    await general.submit();
    expect(onBadRequest).toHaveBeenCalledWith('body/name: must not be empty', expect.any(ApiError));

    onBadRequest.mockClear();
    const onField = submitFailing(invalid({ path: 'email', message: 'must be an email address' }), {
      onStatus: { 400: onBadRequest },
    });
    await onField.submit();
    expect(onBadRequest).not.toHaveBeenCalled();
    expect(onField.errors()).toEqual({ email: 'Email must be an email address' });
  });

  it('shows any other failure as a red notification with the title', async () => {
    const show = vi.spyOn(notifications, 'show').mockReturnValue('id');
    const form = submitFailing(new ApiError(500, 'internal', 'boom'), { onStatus: { 409: 'email' } });
    await form.submit();
    expect(show).toHaveBeenCalledWith({
      color: 'red',
      title: 'Could not save',
      message: 'The server ran into a problem. Try again in a moment.',
    });
    expect(form.errors()).toEqual({});
  });

  it('hands any other failure to the form when it shows failures itself', async () => {
    const show = vi.spyOn(notifications, 'show');
    const otherwise = vi.fn();
    const failure = new TypeError('fetch failed');
    const form = submitFailing(failure, { otherwise });
    await form.submit();
    expect(otherwise).toHaveBeenCalledWith('Something went wrong. Try again.', failure);
    expect(show).not.toHaveBeenCalled();
  });
});

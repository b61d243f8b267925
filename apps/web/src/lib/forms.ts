import { schemaResolver, type FormErrors, type LooseKeys, type UseFormReturnType } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { isApiError, type ApiError } from './api-client';
import { errorMessage, fieldErrorsFrom, fieldMessage } from './errors';

type Schema = Parameters<typeof schemaResolver>[0];

/**
 * Validates a Mantine form with a shared zod schema (the one the server uses), turning its
 * messages into sentences with the field's label. `prepare` maps form values to the schema's input.
 */
export function formResolver<Values>(
  schema: Schema,
  labels: Partial<Record<string, string>>,
  prepare?: (values: Values) => unknown,
) {
  const resolve = schemaResolver(schema, { sync: true });
  return (values: Values) => {
    const errors = resolve(prepare ? prepare(values) : values);
    return Object.fromEntries(
      Object.entries(errors).map(([field, message]) => [
        field,
        typeof message === 'string' ? fieldMessage(labels[field], message) : message,
      ]),
    );
  };
}

/** The parts of a Mantine form (`useForm`) the hook uses. */
type MutationForm<Values> = Pick<UseFormReturnType<Values>, 'onSubmit' | 'setErrors' | 'setFieldError'>;

export interface FormMutationOptions<Values, Field extends string> {
  /** The call, and what follows when it succeeds. */
  run: (values: Values) => Promise<unknown>;
  /** The form's fields (field → label): a 400 answer's details about them land under them. */
  labels: Record<Field, string>;
  /** The field errors as the form shows them: friendlier words, a detail moved onto another field. */
  adjustErrors?: (errors: Partial<Record<Field, string>>, error: ApiError) => FormErrors;
  /**
   * Answers with a place of their own, by status: a field name puts the message under that field,
   * a function shows it. A 400 answer comes here only when none of its details is about a field.
   */
  onStatus?: Partial<Record<number, LooseKeys<Values> | ((message: string, error: ApiError) => void)>>;
  /** Any other failure: a red notification with this title, or a function that shows the message. */
  otherwise: string | ((message: string, error: unknown) => void);
}

/**
 * Runs a form's mutation and shows what went wrong where it belongs: the API's validation details
 * (400) under the fields they name, an answer with a place of its own (a 409 under the field it is
 * about) there, and anything else as the form says. `submit` is the form's submit handler (values
 * validated first); `run` does the same for values the caller checked itself.
 */
export function useFormMutation<Values, Field extends string>(
  form: MutationForm<Values>,
  options: FormMutationOptions<Values, Field>,
) {
  const run = async (values: Values) => {
    try {
      await options.run(values);
    } catch (error) {
      showFormError(form, options, error);
    }
  };
  return { submit: form.onSubmit(run), run };
}

function showFormError<Values, Field extends string>(
  form: MutationForm<Values>,
  { labels, adjustErrors, onStatus, otherwise }: FormMutationOptions<Values, Field>,
  error: unknown,
) {
  const message = errorMessage(error);
  if (isApiError(error)) {
    if (error.status === 400) {
      const found = fieldErrorsFrom(error, labels);
      const fieldErrors = adjustErrors ? adjustErrors(found, error) : found;
      if (Object.keys(fieldErrors).length > 0) {
        form.setErrors(fieldErrors);
        return;
      }
    }
    const own = onStatus?.[error.status];
    if (typeof own === 'function') {
      own(message, error);
      return;
    }
    if (own !== undefined) {
      form.setFieldError(own, message);
      return;
    }
  }
  if (typeof otherwise === 'function') otherwise(message, error);
  else notifications.show({ color: 'red', title: otherwise, message });
}

import { schemaResolver } from '@mantine/form';
import { fieldMessage } from './errors';

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

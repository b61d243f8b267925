import { companyCodeInputSchema, type CompanyCodeInput } from '@latchkey/shared';
import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useForm, type FormErrors } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { BackLink } from '@/components/back-link';
import { PageHeader } from '@/components/page-header';
import { SectionCard } from '@/components/section-card';
import { ValidityFields } from '@/components/validity-fields';
import { paths } from '@/config/paths';
import { formResolver, useFormMutation } from '@/lib/forms';
import {
  checkValidity,
  friendlyValidity,
  VALIDITY_LABELS,
  validityInput,
  type ValidityValues,
} from '@/lib/validity';
import { useCreateCompanyCode } from '../api/create-company-code';
import { useCompanyCodeClock } from './company-code-clock';

interface CodeValues extends ValidityValues {
  name: string;
  code: string;
}

const LABELS: Record<keyof CodeValues, string> = {
  name: 'Name',
  code: 'Code',
  ...VALIDITY_LABELS,
};

/** What a code may look like here; each keypad's own rule and uniqueness are the server's. */
const CODE_PATTERN = /^\d{4,12}$/;

/** The form's values as the API's, the times read on `timeZone`'s clock (useCompanyCodeClock). */
const toInput =
  (timeZone: string) =>
  (values: CodeValues): CompanyCodeInput => ({
    name: values.name.trim(),
    code: values.code,
    ...validityInput(values, timeZone),
  });

function validator(timeZone: string) {
  const resolve = formResolver<CodeValues>(companyCodeInputSchema, LABELS, toInput(timeZone));
  return (values: CodeValues): FormErrors => {
    const errors = checkValidity(values, resolve(values), timeZone);
    if (!errors.code && !CODE_PATTERN.test(values.code)) errors.code = 'Code must be 4 to 12 digits';
    return errors;
  };
}

/** /app/access-code/new (admin): add a company code; back to the list once saved. */
export function CompanyCodeNewPage() {
  const navigate = useNavigate();
  const create = useCreateCompanyCode();
  const [failure, setFailure] = useState<string | null>(null);
  const clock = useCompanyCodeClock();
  const form = useForm<CodeValues>({
    mode: 'controlled',
    initialValues: { name: '', code: '', validFrom: '', validUntil: '' },
    // Read at submit: the keypad locks' zone may arrive after the form is first drawn.
    validate: (values) => validator(clock.timeZone)(values),
  });

  const { submit } = useFormMutation(form, {
    run: async (values) => {
      setFailure(null);
      const saved = await create.mutateAsync(toInput(clock.timeZone)(values));
      notifications.show({
        color: 'teal',
        title: 'Company code added',
        message: `${saved.name} opens every keypad lock of the portal.`,
      });
      await navigate(paths.app.companyCodes.href());
    },
    labels: LABELS,
    adjustErrors: (errors) => friendlyValidity(errors),
    // The rule the code breaks (a keypad's length, already in use) belongs on the field.
    onStatus: { 400: 'code', 409: 'code' },
    otherwise: (message) => setFailure(message),
  });

  return (
    <Stack gap="lg">
      <BackLink to={paths.app.companyCodes.href()} label="All company codes" />
      <PageHeader
        title="New company code"
        description="One PIN for the whole portal: it opens every keypad lock, e.g. for the cleaning crew."
      />
      <form onSubmit={submit} noValidate aria-label="New company code">
        <Stack gap="lg" maw={760}>
          <SectionCard title="Company code">
            <Stack gap="md">
              {failure && (
                <Alert
                  color="red"
                  variant="light"
                  icon={<IconAlertTriangle aria-hidden="true" />}
                  role="alert"
                  title="Could not add the company code"
                >
                  {failure}
                </Alert>
              )}
              <TextInput
                label={LABELS.name}
                description="Who uses it, e.g. “Cleaning crew”."
                inputWrapperOrder={['label', 'input', 'description', 'error']}
                placeholder="Cleaning crew"
                required
                maxLength={80}
                data-autofocus
                {...form.getInputProps('name')}
              />
              <TextInput
                label={LABELS.code}
                description="4 to 12 digits that fit every keypad here and nobody else uses."
                inputWrapperOrder={['label', 'input', 'description', 'error']}
                required
                inputMode="numeric"
                autoComplete="off"
                maxLength={12}
                styles={{
                  input: { fontFamily: 'var(--mantine-font-family-monospace)', letterSpacing: '0.1em' },
                }}
                {...form.getInputProps('code')}
                onChange={(event) => form.setFieldValue('code', event.currentTarget.value.replace(/\D/g, ''))}
              />
              <ValidityFields
                from={form.getInputProps('validFrom')}
                until={form.getInputProps('validUntil')}
                clock={clock.says}
              />
              {clock.note && (
                <Text size="xs" c="dimmed">
                  {clock.note}
                </Text>
              )}
            </Stack>
          </SectionCard>
          <Group justify="flex-end" gap="sm">
            <Button
              component={Link}
              to={paths.app.companyCodes.href()}
              variant="default"
              disabled={create.isPending}
            >
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Add company code
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}

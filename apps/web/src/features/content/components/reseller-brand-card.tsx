import { BRAND_IDS, BRANDS, type BrandId } from '@latchkey/shared';
import { Button, Group, Image, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { SectionCard } from '@/components/section-card';
import { errorMessage } from '@/lib/errors';
import { useSetResellerBrand } from '../api/set-reseller-brand';

const HOST = 'host';

interface ResellerBrandCardProps {
  /** The brand the reseller chose; null: the host's. */
  current: BrandId | null;
  /** After a save: the reseller's own screen refreshes its account. */
  onSaved: () => void;
}

/** The brand a reseller's customers see in the app, their mails and invoices (brief §1). */
export function ResellerBrandCard({ current, onSaved }: ResellerBrandCardProps) {
  const [choice, setChoice] = useState<string>(current ?? HOST);
  const save = useSetResellerBrand();
  const chosen = choice === HOST ? null : (choice as BrandId);
  const submit = () =>
    save.mutate(
      { brand: chosen },
      {
        onSuccess: () => {
          notifications.show({ color: 'teal', message: 'Your customers now see this brand' });
          onSaved();
        },
        onError: (error) =>
          notifications.show({ color: 'red', title: 'Not saved', message: errorMessage(error) }),
      },
    );
  return (
    <SectionCard
      title="Your customers' brand"
      description="The logo and name your customers see in the app, in their mails and on their invoices."
    >
      <Stack gap="sm">
        <Group align="flex-end" gap="sm">
          <Select
            label="Brand"
            allowDeselect={false}
            data={[
              { value: HOST, label: 'The address’s brand (default)' },
              ...BRAND_IDS.map((id) => ({ value: id, label: BRANDS[id].name })),
            ]}
            value={choice}
            onChange={(value) => value && setChoice(value)}
            w={280}
          />
          <Button onClick={submit} loading={save.isPending} disabled={chosen === current}>
            Save
          </Button>
        </Group>
        {chosen && (
          <Group gap="md">
            <Text size="sm" c="dimmed">
              Preview:
            </Text>
            <Image src={BRANDS[chosen].logo.light} alt={BRANDS[chosen].name} h={32} w="auto" darkHidden />
            <Image src={BRANDS[chosen].logo.dark} alt={BRANDS[chosen].name} h={32} w="auto" lightHidden />
          </Group>
        )}
      </Stack>
    </SectionCard>
  );
}

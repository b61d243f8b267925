import { Anchor, Grid, Group, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { MemberStatusBadge, RoleBadge } from '@/components/member-badges';
import { MissingRecord } from '@/components/missing-record';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { displayName, useSession } from '@/lib/session';
import { useMember } from '../api/get-member';
import { AccessCodeCard } from './access-code-card';
import { ActAsPersonButton } from './act-as-person-button';
import { MemberCardsCard } from './member-cards-card';
import { MemberHistory } from './member-history';
import { MemberDetailsCard } from './member-details-card';
import { MemberFingerprintsCard } from './member-fingerprints-card';
import { MemberKeysCard } from './member-keys-card';
import { MemberLocksCard } from './member-locks-card';
import { MembershipCard } from './membership-card';

function BackToPeople() {
  return (
    <Anchor
      component={Link}
      to={paths.app.members.href()}
      size="sm"
      style={{ display: 'inline-flex', alignItems: 'center', gap: 4, alignSelf: 'flex-start' }}
    >
      <IconArrowLeft size={16} aria-hidden="true" />
      All people
    </Anchor>
  );
}

/** /app/user/:userId (admin): one person: details, membership, access code, cards, keys, fingerprints and locks. */
export function MemberPage() {
  const { userId = '' } = useParams();
  const { data: session } = useSession();
  const { data, error, isPending, refetch } = useMember(userId);

  if (isPending) {
    return (
      <Stack gap="lg" role="status" aria-label="Loading the person">
        <Skeleton height={34} width="40%" radius="sm" />
        <Skeleton height={240} radius="lg" />
      </Stack>
    );
  }
  if (error) {
    if (isApiError(error) && error.status === 404) {
      return <MissingRecord what="This person" backTo={paths.app.members.href()} backLabel="All people" />;
    }
    return (
      <Stack gap="lg">
        <BackToPeople />
        <Paper p="md" radius="lg">
          <QueryError title="Could not load the person" error={error} onRetry={() => void refetch()} />
        </Paper>
      </Stack>
    );
  }

  const { member, accessCode } = data;
  const name = displayName(member);
  const isSelf = session?.user._id === member._id;
  return (
    <Stack gap="lg">
      <BackToPeople />
      <PageHeader
        title={
          <>
            {name}
            {isSelf && (
              <Text span c="dimmed" fz="md" fw={500} ml="xs">
                (you)
              </Text>
            )}
          </>
        }
        description={`${name !== member.email ? `${member.email} · ` : ''}Joined ${formatDate(member.joinedAt)}`}
        aside={
          <Group gap="xs">
            <RoleBadge member={member} size="lg" />
            <MemberStatusBadge status={member.status} size="lg" />
            <ActAsPersonButton member={member} />
          </Group>
        }
      />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="lg">
            <MemberDetailsCard
              key={`${member._id}:${member.firstName}:${member.lastName}:${member.role}`}
              member={member}
            />
            <MembershipCard member={member} isSelf={isSelf} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="lg">
            <AccessCodeCard member={member} accessCode={accessCode} />
            <MemberCardsCard member={member} />
          </Stack>
        </Grid.Col>
      </Grid>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 6 }}>
          <MemberKeysCard member={member} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <MemberFingerprintsCard member={member} />
        </Grid.Col>
      </Grid>
      <MemberLocksCard member={member} />
      <MemberHistory userId={member._id} />
    </Stack>
  );
}

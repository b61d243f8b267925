import { Grid, Group, Stack, Text } from '@mantine/core';
import { useParams } from 'react-router';
import { MemberStatusBadge, RoleBadge } from '@/components/member-badges';
import { paths } from '@/config/paths';
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
import { RecordPage } from '@/components/record-page';

/** /app/user/:userId (admin): one person: details, membership, access code, cards, keys, fingerprints and locks. */
export function MemberPage() {
  const { userId = '' } = useParams();
  const { data: session } = useSession();
  return (
    <RecordPage
      query={useMember(userId)}
      noun="person"
      back={{ to: paths.app.members.href(), label: 'All people' }}
      header={({ member }) => {
        const name = displayName(member);
        return {
          title: (
            <>
              {name}
              {session?.user._id === member._id && (
                <Text span c="dimmed" fz="md" fw={500} ml="xs">
                  (you)
                </Text>
              )}
            </>
          ),
          description: `${name !== member.email ? `${member.email} · ` : ''}${member.status === 'invited' ? 'Invited' : 'Joined'} ${formatDate(member.joinedAt)}`,
          aside: (
            <Group gap="xs">
              <RoleBadge member={member} size="lg" />
              <MemberStatusBadge status={member.status} size="lg" />
              <ActAsPersonButton member={member} />
            </Group>
          ),
        };
      }}
    >
      {({ member, accessCode }) => (
        <>
          <Grid gap="lg">
            <Grid.Col span={{ base: 12, md: 7 }}>
              <Stack gap="lg">
                <MemberDetailsCard
                  key={`${member._id}:${member.firstName}:${member.lastName}:${member.role}`}
                  member={member}
                />
                <MembershipCard member={member} isSelf={session?.user._id === member._id} />
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
        </>
      )}
    </RecordPage>
  );
}

import { Anchor, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { lmsPublic, type PublicApplicationPortalOut } from '../api';
import { Breadcrumbs, type Crumb } from './breadcrumbs';
import { ChoiceList, portalFacts, SummaryList } from './choices';
import { linksOf, type Side } from './links';
import classes from './lms-public.module.css';
import { combined, LoadState } from './load-state';

const COUNCILS = 'Councils';

/** A browsing page's frame: breadcrumbs, a caption over the heading, a lead paragraph. */
function BrowseFrame({
  crumbs,
  caption,
  title,
  lead,
  children,
}: {
  crumbs: readonly Crumb[];
  caption?: string;
  title: string;
  lead?: string;
  children: ReactNode;
}) {
  return (
    <Stack gap="lg" maw={720} w="100%">
      {crumbs.length > 1 && <Breadcrumbs crumbs={crumbs} />}
      <Stack gap={4}>
        {caption && (
          <Text c="dimmed" size="lg" data-testid="lms-caption">
            {caption}
          </Text>
        )}
        <Title order={1}>{title}</Title>
      </Stack>
      {lead && (
        <Text size="lg" className={classes.prose}>
          {lead}
        </Text>
      )}
      {children}
    </Stack>
  );
}

/** /lms/council-list (and /s/): the councils that publish licences. */
export function CouncilListPage({ side }: { side: Side }) {
  const links = linksOf(side);
  const councils = useQuery(lmsPublic.councils());
  const load = combined(councils.data);
  if (load === 'loading' || load.state !== 'ready' || councils.data?.state !== 'ready') {
    return <LoadState load={load} home={links.councils()} onRetry={() => councils.refetch()} />;
  }
  return (
    <BrowseFrame
      crumbs={[]}
      caption="Licensing"
      title="Apply for a licence from your council"
      lead="Choose your council to see the licences you can apply for online, what each needs and what it costs."
    >
      <ChoiceList
        testId="lms-councils"
        choices={councils.data.data.results.map((c) => ({
          key: c.id,
          to: links.council(c.id),
          label: c.name,
        }))}
        empty="No council offers licences online here yet."
      />
    </BrowseFrame>
  );
}

/** /lms/{councilId}: the council's published licence groups. */
export function CouncilPage({ side }: { side: Side }) {
  const links = linksOf(side);
  const { councilId = '' } = useParams();
  const council = useQuery(lmsPublic.council(councilId));
  const groups = useQuery(lmsPublic.groups(councilId));
  const load = combined(council.data, groups.data);
  if (
    load === 'loading' ||
    load.state !== 'ready' ||
    council.data?.state !== 'ready' ||
    groups.data?.state !== 'ready'
  ) {
    const retry = () => void Promise.all([council.refetch(), groups.refetch()]);
    return <LoadState load={load} home={links.councils()} onRetry={retry} />;
  }
  const name = council.data.data.name;
  return (
    <BrowseFrame
      crumbs={[{ label: COUNCILS, to: links.councils() }, { label: name }]}
      caption="Licensing"
      title={name}
      lead="Licences you can apply for online."
    >
      <ChoiceList
        testId="lms-groups"
        choices={groups.data.data.results.map((g) => ({
          key: g.id,
          to: links.group(councilId, g.id),
          label: g.name,
          description: g.description,
        }))}
        empty="This council has no licences to apply for online at the moment."
      />
    </BrowseFrame>
  );
}

/** /lms/{councilId}/{licenceGroupId}: the group's published sub-groups. */
export function GroupPage({ side }: { side: Side }) {
  const links = linksOf(side);
  const { councilId = '', licenceGroupId = '' } = useParams();
  const council = useQuery(lmsPublic.council(councilId));
  const group = useQuery(lmsPublic.group(licenceGroupId));
  const subGroups = useQuery(lmsPublic.subGroups(licenceGroupId));
  // a group of another council under this council's address is not found
  const groupHere =
    group.data?.state === 'ready' && String(group.data.data.customer) !== councilId
      ? ({ state: 'missing' } as const)
      : group.data;
  const load = combined(council.data, groupHere, subGroups.data);
  if (
    load === 'loading' ||
    load.state !== 'ready' ||
    council.data?.state !== 'ready' ||
    group.data?.state !== 'ready' ||
    subGroups.data?.state !== 'ready'
  ) {
    const retry = () => void Promise.all([council.refetch(), group.refetch(), subGroups.refetch()]);
    return <LoadState load={load} home={links.councils()} onRetry={retry} />;
  }
  const councilName = council.data.data.name;
  const g = group.data.data;
  return (
    <BrowseFrame
      crumbs={[
        { label: COUNCILS, to: links.councils() },
        { label: councilName, to: links.council(councilId) },
        { label: g.name },
      ]}
      caption={councilName}
      title={g.name}
      lead={g.description || undefined}
    >
      <ChoiceList
        testId="lms-sub-groups"
        choices={subGroups.data.data.results.map((s) => ({
          key: s.id,
          to: links.subGroup(councilId, licenceGroupId, s.id),
          label: s.name,
          description: s.description,
        }))}
        empty="No licences of this kind are published at the moment."
      />
    </BrowseFrame>
  );
}

function PortalCard({ portal, to }: { portal: PublicApplicationPortalOut; to: string }) {
  const needs = [...portal.requirements, ...portal.documents];
  return (
    <Paper withBorder radius="md" p="md" component="li" data-testid="lms-portal">
      <Stack gap="xs">
        <Title order={2} size="h3">
          <Anchor component={Link} to={to} className={classes.choiceLink}>
            {portal.title}
          </Anchor>
        </Title>
        {portal.introduction && (
          <Text size="sm" className={classes.prose} lineClamp={3}>
            {portal.introduction}
          </Text>
        )}
        <SummaryList
          inCard
          rows={[
            ...portalFacts(portal).slice(1),
            ...(needs.length ? [{ label: 'You will need', value: needs.join(', ') }] : []),
          ]}
        />
      </Stack>
    </Paper>
  );
}

/** /lms/{councilId}/{licenceGroupId}/{licenceSubGroupId}: the open application portals. */
export function SubGroupPage({ side }: { side: Side }) {
  const links = linksOf(side);
  const { councilId = '', licenceGroupId = '', licenceSubGroupId = '' } = useParams();
  const council = useQuery(lmsPublic.council(councilId));
  const group = useQuery(lmsPublic.group(licenceGroupId));
  const subGroup = useQuery(lmsPublic.subGroup(licenceSubGroupId));
  const portals = useQuery(lmsPublic.portals(licenceSubGroupId));
  const inPlace =
    group.data?.state === 'ready' &&
    subGroup.data?.state === 'ready' &&
    (String(group.data.data.customer) !== councilId ||
      String(subGroup.data.data.group) !== licenceGroupId)
      ? ({ state: 'missing' } as const)
      : subGroup.data;
  const load = combined(council.data, group.data, inPlace, portals.data);
  if (
    load === 'loading' ||
    load.state !== 'ready' ||
    council.data?.state !== 'ready' ||
    group.data?.state !== 'ready' ||
    subGroup.data?.state !== 'ready' ||
    portals.data?.state !== 'ready'
  ) {
    const retry = () =>
      void Promise.all([council.refetch(), group.refetch(), subGroup.refetch(), portals.refetch()]);
    return <LoadState load={load} home={links.councils()} onRetry={retry} />;
  }
  const councilName = council.data.data.name;
  const g = group.data.data;
  const s = subGroup.data.data;
  const open = portals.data.data.results;
  return (
    <BrowseFrame
      crumbs={[
        { label: COUNCILS, to: links.councils() },
        { label: councilName, to: links.council(councilId) },
        { label: g.name, to: links.group(councilId, licenceGroupId) },
        { label: s.name },
      ]}
      caption={`${councilName} · ${g.name}`}
      title={s.name}
      lead={s.description || undefined}
    >
      {open.length === 0 ? (
        <Text c="dimmed" data-testid="lms-portals-empty">
          No applications are open for this licence at the moment. Contact {councilName}'s licensing
          team to ask when they open.
        </Text>
      ) : (
        <Stack component="ul" gap="md" p={0} m={0} style={{ listStyle: 'none' }}>
          {open.map((p) => (
            <PortalCard key={p.id} portal={p} to={links.portal(p.id)} />
          ))}
        </Stack>
      )}
    </BrowseFrame>
  );
}

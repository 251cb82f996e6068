import { Alert, Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { href } from '../../../config/paths';
import { useSession } from '../../../lib/session/session-store';
import { type Loaded, lmsPublic, type PublicApplicationPortalOut } from '../api';
import { Breadcrumbs, type Crumb } from './breadcrumbs';
import { portalFacts, SummaryList } from './choices';
import { linksOf, type Side } from './links';
import classes from './lms-public.module.css';
import { LoadState } from './load-state';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="sm" component="section">
      <Title order={2}>{title}</Title>
      {children}
    </Stack>
  );
}

function Needs({ title, lead, items }: { title: string; lead: string; items: readonly string[] }) {
  if (items.length === 0) return null;
  return (
    <Stack gap={4}>
      <Title order={3} size="h4">
        {title}
      </Title>
      <Text size="sm" c="dimmed">
        {lead}
      </Text>
      <ul className={classes.bullets}>
        {items.map((i) => (
          <li key={i}>{i}</li>
        ))}
      </ul>
    </Stack>
  );
}

/** What the licence needs: the checks, the documents and the declarations. */
function WhatYouNeed({ portal }: { portal: PublicApplicationPortalOut }) {
  const none =
    portal.requirements.length + portal.documents.length + portal.declarations.length === 0;
  return (
    <Section title="What you need">
      {none ? (
        <Text>Nothing beyond the application itself.</Text>
      ) : (
        <Stack gap="md" data-testid="portal-needs">
          <Needs
            title="Checks"
            lead="Done online after you apply; we tell you what each needs."
            items={portal.requirements}
          />
          <Needs
            title="Documents"
            lead="You upload these during your application."
            items={portal.documents}
          />
          <Needs
            title="Declarations"
            lead="You will be asked to confirm:"
            items={portal.declarations}
          />
        </Stack>
      )}
    </Section>
  );
}

/** The way to apply for a visitor: sign in (or create an account) as an applicant, then back. */
function SignInToApply({ portal }: { portal: PublicApplicationPortalOut }) {
  const session = useSession();
  const next = href('s:application-portal', { id: portal.id });
  if (session.status === 'logged-in' && session.userType === 'ProductUser') {
    return (
      <Alert color="blue" variant="light" title="You are signed in as staff" data-testid="staff">
        To apply for a licence, sign out and sign in with your own account.
      </Alert>
    );
  }
  return (
    <Stack gap="sm" align="flex-start" data-testid="sign-in-to-apply">
      <ol className={classes.steps}>
        <li>Sign in, or create an account.</li>
        {portal.fee_pence > 0 && <li>Pay the fee of {portal.fee_display} online.</li>}
        <li>Complete the checks online.</li>
        <li>{portal.customer_name} decides and tells you by email.</li>
      </ol>
      <Button
        component={Link}
        to={href('login', {}, { next, subject: 'y' })}
        size="lg"
        mih={48}
        mt="xs"
      >
        Sign in to apply
      </Button>
      <Text>
        New here?{' '}
        <Anchor component={Link} to={href('signup', {}, { next, subject: 'y' })}>
          Create an account
        </Anchor>
      </Text>
    </Stack>
  );
}

/**
 * The frame of /application-portals/{id} and /s/application-portals/{id}: what the licence needs,
 * what it costs and how long it lasts, then `action` (signing in, or applying).
 */
export function PortalFrame<P extends PublicApplicationPortalOut>({
  side,
  load,
  onRetry,
  action,
}: {
  side: Side;
  load: Loaded<P> | undefined;
  onRetry: () => void;
  action: (portal: P) => ReactNode;
}) {
  const links = linksOf(side);
  const portal = load?.state === 'ready' ? load.data : null;
  // the breadcrumbs' names (shown once known; the page does not wait for them)
  const group = useQuery({
    ...lmsPublic.group(String(portal?.group ?? '')),
    enabled: portal !== null,
  });
  const subGroup = useQuery({
    ...lmsPublic.subGroup(String(portal?.sub_group ?? '')),
    enabled: portal !== null,
  });
  if (!portal) {
    const state = load === undefined || load.state === 'ready' ? 'loading' : load;
    return <LoadState load={state} home={links.councils()} onRetry={onRetry} />;
  }
  const g = group.data?.state === 'ready' ? group.data.data : null;
  const s = subGroup.data?.state === 'ready' ? subGroup.data.data : null;
  const crumbs: Crumb[] = [
    { label: 'Councils', to: links.councils() },
    { label: portal.customer_name, to: links.council(portal.customer) },
    ...(g ? [{ label: g.name, to: links.group(portal.customer, g.id) }] : []),
    ...(g && s ? [{ label: s.name, to: links.subGroup(portal.customer, g.id, s.id) }] : []),
    { label: portal.title },
  ];
  return (
    <Stack gap="xl" maw={720} w="100%">
      <Breadcrumbs crumbs={crumbs} />
      <Stack gap="md">
        <Stack gap={4}>
          <Text c="dimmed" size="lg" data-testid="lms-caption">
            {portal.customer_name}
          </Text>
          <Title order={1}>{portal.title}</Title>
        </Stack>
        {portal.introduction && (
          <Text size="lg" className={classes.prose}>
            {portal.introduction}
          </Text>
        )}
        <SummaryList rows={portalFacts(portal)} testId="portal-facts" />
      </Stack>
      <WhatYouNeed portal={portal} />
      <Section title="Apply">{action(portal)}</Section>
    </Stack>
  );
}

/** /application-portals/{id}: the public's page; applying starts with signing in. */
export function PublicPortalPage() {
  const { id = '' } = useParams();
  const portal = useQuery(lmsPublic.portal(id));
  return (
    <PortalFrame
      side="public"
      load={portal.data}
      onRetry={() => void portal.refetch()}
      action={(p) => <SignInToApply portal={p} />}
    />
  );
}

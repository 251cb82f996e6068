// Mantine CSS of the components only the portal uses (the app loads Mantine's CSS per component).
import '@mantine/core/styles/List.css';
import '@mantine/core/styles/Progress.css';
import { ERROR_TEXTS, PORTAL_SECTION_LABELS, type PortalSection } from '@kestrel/domain';
import { Alert, Box, Button, Collapse, Grid, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Suspense, useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router';
import {
  type CasePortal,
  casePortalOptions,
  completedCount,
  PortalFailure,
  saveProgress,
  useRefreshPortal,
} from '../../api/portal';
import { href } from '../../config/paths';
import { type PortalFrame, PortalFrameContext } from './frame-context';
import classes from './portal.module.css';
import { PortalProgressBar } from './progress-bar';
import { SectionList, type SectionStatus } from './section-list';
import { preloadSection, sectionComponent, sectionLoading } from './section-modules';
import { SectionShell } from './section-shell';

const isSection = (sections: readonly PortalSection[], value: string | undefined) =>
  value !== undefined && (sections as readonly string[]).includes(value);

/**
 * Where a request for `requested` lands: before submission, at most the first unfinished section
 * (so opening the portal without a section, or on another device, resumes there); after it, any
 * section of the case (read-only), Done by default.
 */
export function portalTarget(portal: CasePortal['portal'], requested?: string): PortalSection {
  const { sections, submitted, progress } = portal;
  if (submitted) {
    return isSection(sections, requested) ? (requested as PortalSection) : 'done';
  }
  const next = sections.includes(progress.next) ? progress.next : (sections[0] ?? 'welcome');
  if (!isSection(sections, requested)) return next;
  const wanted = requested as PortalSection;
  // Done only exists after submission.
  if (wanted === 'done') return next;
  return sections.indexOf(wanted) <= sections.indexOf(next) ? wanted : next;
}

// Opened from the address bar: the section's chunk starts loading with this page's chunk, in
// parallel with the portal payload, not after it.
const opened = /^\/s\/case-portal\/\d+\/([a-z-]+)/.exec(globalThis.location?.pathname ?? '');
if (opened?.[1]) void preloadSection(opened[1]);

/** The case portal: /s/case-portal/:id/:section (and /s/case-portal/:id to resume). */
export default function CasePortalPage() {
  const params = useParams();
  const caseId = Number(params.id);
  const query = useQuery({ ...casePortalOptions(caseId), enabled: Number.isInteger(caseId) });
  const requested = params.section;
  if (requested) void preloadSection(requested);
  // Until the frame has first shown, it waits for the section's chunk too (loading in parallel
  // with the payload), so the frame and its section paint in one go: no skeleton swapped for the
  // section a moment later (layout shift). Later sections use the Suspense fallback.
  const chunk = requested ? sectionLoading(requested) : null;
  const shown = useRef(false);
  const [, chunkArrived] = useReducer((n: number) => n + 1, 0);
  const waitForChunk = chunk !== null && !shown.current;
  useEffect(() => {
    if (!waitForChunk || !chunk) return;
    let live = true;
    void chunk.then(() => live && chunkArrived());
    return () => {
      live = false;
    };
  }, [chunk, waitForChunk]);
  const framed = Boolean(query.data) && !waitForChunk;
  useEffect(() => {
    if (framed) shown.current = true;
  }, [framed]);

  if ((query.isPending && Number.isInteger(caseId)) || (query.data && waitForChunk)) {
    return <PortalLoading />;
  }
  if (!query.data) {
    const notFound = query.error instanceof PortalFailure && query.error.status === 404;
    return (
      <Stack gap="md">
        <Text component="h1" fw={700} size="xl">
          Your case
        </Text>
        <Alert color="red" variant="light" role="alert" data-testid="portal-error">
          <Stack gap="sm" align="flex-start">
            <Text>{notFound ? 'This case was not found.' : ERROR_TEXTS.portalRetrieval}</Text>
            {!notFound && (
              <Button variant="white" color="red" onClick={() => void query.refetch()}>
                Retry
              </Button>
            )}
          </Stack>
        </Alert>
      </Stack>
    );
  }
  const target = portalTarget(query.data.portal, params.section);
  if (target !== params.section) {
    return <Navigate replace to={href('s:case-portal', { id: caseId, section: target })} />;
  }
  return <PortalFrameView caseId={caseId} section={target} data={query.data} />;
}

function PortalFrameView({
  caseId,
  section,
  data,
}: {
  caseId: number;
  section: PortalSection;
  data: CasePortal;
}) {
  const navigate = useNavigate();
  const refresh = useRefreshPortal(caseId);
  const { sections, submitted, progress, customer } = data.portal;
  const lastCompleted = data.portal.portal_last_completed_section;
  const index = sections.indexOf(section);
  const previous = index > 0 ? (sections[index - 1] ?? null) : null;
  const following = sections[index + 1] ?? null;
  const [listOpen, setListOpen] = useState(false);

  const linkTo = useCallback(
    (s: PortalSection) => href('s:case-portal', { id: caseId, section: s }),
    [caseId],
  );
  const goTo = useCallback((s: PortalSection) => navigate(linkTo(s)), [navigate, linkTo]);

  const complete = useCallback(
    async (step?: string) => {
      const value = step ?? section;
      // Progress only moves forward: going through an earlier section again keeps it. A part-done
      // step of the section in progress ('address-history/2') is recorded too.
      const reached = completedCount(sections, value);
      const partDone =
        value.includes('/') && reached === progress.completed && value !== lastCompleted;
      if (!submitted && (reached > progress.completed || partDone)) {
        await saveProgress(caseId, value);
      }
      await refresh();
      if (step === undefined && following) navigate(linkTo(following));
    },
    [
      section,
      submitted,
      sections,
      progress.completed,
      lastCompleted,
      caseId,
      refresh,
      following,
      navigate,
      linkTo,
    ],
  );

  useEffect(() => {
    setListOpen(false);
    window.scrollTo?.({ top: 0 });
    if (!following || submitted) return;
    // The next section loads once the browser is idle, not while this one is first painting.
    const idle = globalThis.requestIdleCallback;
    if (idle) {
      const handle = idle(() => void preloadSection(following), { timeout: 3000 });
      return () => globalThis.cancelIdleCallback?.(handle);
    }
    const timer = setTimeout(() => void preloadSection(following), 1000);
    return () => clearTimeout(timer);
  }, [following, submitted]);

  const frame: PortalFrame = useMemo(
    () => ({
      caseId,
      section,
      portal: data,
      refresh,
      readOnly: submitted,
      complete,
      previous,
      following,
      goTo,
      linkTo,
    }),
    [caseId, section, data, refresh, submitted, complete, previous, following, goTo, linkTo],
  );

  const statusOf = (s: PortalSection): SectionStatus =>
    submitted || sections.indexOf(s) < progress.completed ? 'done' : 'todo';
  const open = (s: PortalSection) =>
    submitted ? s !== 'review' : sections.indexOf(s) <= sections.indexOf(progress.next);
  const list = (
    <SectionList
      sections={sections}
      current={section}
      statusOf={statusOf}
      linkTo={linkTo}
      open={open}
    />
  );
  const Section = sectionComponent(section);

  return (
    <PortalFrameContext.Provider value={frame}>
      <Stack gap="md" data-testid="case-portal" maw={1100} mx="auto">
        <Text size="sm" c="dimmed">
          Checks for {customer.name}
        </Text>
        <PortalProgressBar
          step={index + 1}
          total={sections.length}
          percent={submitted ? 100 : progress.percent}
        />
        <Box hiddenFrom="md">
          <Button
            variant="subtle"
            size="md"
            px="xs"
            mih={44}
            onClick={() => setListOpen((o) => !o)}
            aria-expanded={listOpen}
            aria-controls="portal-section-list"
          >
            {listOpen ? 'Hide all sections' : 'Show all sections'}
          </Button>
          <Collapse expanded={listOpen} id="portal-section-list">
            {list}
          </Collapse>
        </Box>
        <Grid gap="xl">
          <Grid.Col span={{ base: 12, md: 3 }} visibleFrom="md">
            {list}
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 9 }}>
            <Paper
              withBorder
              radius="lg"
              p={{ base: 'md', sm: 'xl' }}
              data-testid="portal-section"
              data-section={section}
              className={classes.section}
            >
              <Suspense fallback={<Skeleton h={300} radius="md" />}>
                {Section ? (
                  <Section
                    caseId={caseId}
                    section={section}
                    portal={data}
                    refresh={refresh}
                    readOnly={submitted}
                    complete={complete}
                  />
                ) : (
                  <MissingSection section={section} />
                )}
              </Suspense>
            </Paper>
          </Grid.Col>
        </Grid>
      </Stack>
    </PortalFrameContext.Provider>
  );
}

/**
 * The frame's shape while the payload and the section's code load: the same boxes, of the same
 * heights, as the frame (customer line, progress, section list, section), so nothing jumps when
 * they arrive. The section's box is taller than a phone's screen, keeping the footer out of view.
 */
function PortalLoading() {
  return (
    <Stack gap="md" data-testid="portal-loading" aria-busy maw={1100} mx="auto">
      <Skeleton w="50%" radius="sm">
        <Text size="sm" aria-hidden>
          Checks for
        </Text>
      </Skeleton>
      <Stack gap={6} aria-hidden>
        <Skeleton w="40%" radius="sm">
          <Text size="sm">Step 1 of 1</Text>
        </Skeleton>
        <Skeleton h={12} radius="xl" />
      </Stack>
      <Box hiddenFrom="md" h={42} />
      <Grid gap="xl">
        <Grid.Col span={{ base: 12, md: 3 }} visibleFrom="md">
          <Skeleton h={240} radius="md" />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 9 }}>
          <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
            <Skeleton h="80vh" radius="md" />
          </Paper>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

/** A section whose screen is not built yet: it says so, and the person can go on. */
function MissingSection({ section }: { section: PortalSection }) {
  return (
    <SectionShell title={PORTAL_SECTION_LABELS[section]} form={false}>
      <Text>This part is not available online yet. We will contact you about it.</Text>
    </SectionShell>
  );
}

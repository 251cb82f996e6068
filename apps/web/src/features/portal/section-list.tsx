import { PORTAL_SECTION_LABELS, type PortalSection } from '@kestrel/domain';
import { Box, Group, Text, ThemeIcon, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { Link } from 'react-router';
import { Icon } from '../../components/icons';

export type SectionStatus = 'done' | 'current' | 'todo';

/**
 * The case's sections in portal order: done ones link back, the one on screen is marked, later
 * ones are shown but cannot be opened yet (after submission every one can be looked at).
 */
export function SectionList({
  sections,
  current,
  statusOf,
  linkTo,
  open,
}: {
  sections: readonly PortalSection[];
  current: PortalSection;
  statusOf: (section: PortalSection) => SectionStatus;
  linkTo: (section: PortalSection) => string;
  /** Whether a section may be opened from the list. */
  open: (section: PortalSection) => boolean;
}) {
  return (
    <Box component="nav" aria-label="Sections" data-testid="portal-sections">
      <Box component="ol" m={0} p={0} style={{ listStyle: 'none' }}>
        {sections.map((s, i) => {
          const status = s === current ? 'current' : statusOf(s);
          const label = PORTAL_SECTION_LABELS[s];
          const marker = (
            <ThemeIcon
              size={26}
              radius="xl"
              variant={status === 'todo' ? 'default' : 'filled'}
              color={status === 'done' ? 'teal' : undefined}
              aria-hidden
            >
              {status === 'done' ? (
                <Icon name="check" size={16} />
              ) : (
                <Text size="xs" fw={700} c="inherit">
                  {i + 1}
                </Text>
              )}
            </ThemeIcon>
          );
          const content = (
            <Group gap="sm" wrap="nowrap" mih={44} px="xs">
              {marker}
              <Text
                fw={status === 'current' ? 700 : 500}
                c={status === 'todo' ? 'dimmed' : undefined}
                size="sm"
              >
                {label}
                {status === 'done' && <VisuallyHidden> (done)</VisuallyHidden>}
              </Text>
            </Group>
          );
          return (
            <li key={s} data-status={status}>
              {s !== current && open(s) ? (
                <UnstyledButton
                  component={Link}
                  to={linkTo(s)}
                  display="block"
                  style={{ borderRadius: 'var(--mantine-radius-md)' }}
                >
                  {content}
                </UnstyledButton>
              ) : (
                <Box
                  aria-current={s === current ? 'step' : undefined}
                  style={{
                    borderRadius: 'var(--mantine-radius-md)',
                    background: s === current ? 'var(--mantine-primary-color-light)' : undefined,
                  }}
                >
                  {content}
                </Box>
              )}
            </li>
          );
        })}
      </Box>
    </Box>
  );
}

import {
  ACTIVITY_KINDS,
  type ActivityConfig,
  activityConfigSchema,
  isActivityKindCode,
  requirementConfigFields,
} from '@kestrel/domain';
import { Checkbox, Paper, Stack, Text } from '@mantine/core';
import type { Requirement } from '../../../api/processes';
import { useSession } from '../../../lib/session/session-store';
import { ActivityConfigForm } from './activity-config-form';

export type RequirementErrors = Record<string, Partial<Record<string, string>>>;

/** Validates every requirement's configuration; empty when all are valid. */
export function validateRequirements(requirements: Requirement[]): RequirementErrors {
  const out: RequirementErrors = {};
  for (const r of requirements) {
    const result = activityConfigSchema.safeParse(r.config);
    if (result.success) continue;
    const fields: Partial<Record<string, string>> = {};
    for (const issue of result.error.issues) {
      const key = String(issue.path[0] ?? '');
      fields[key] ??= issue.message;
    }
    out[r.activity_type] = fields;
  }
  return out;
}

export function activityName(code: string, fallback?: string): string {
  return isActivityKindCode(code) ? ACTIVITY_KINDS[code].name : (fallback ?? code);
}

/**
 * The checks a process runs: one row per activity type the customer may order, ticked when the
 * process requires it, with that requirement's activity configuration.
 */
export function RequirementsEditor({
  value,
  onChange,
  errors = {},
  readOnly = false,
}: {
  value: Requirement[];
  onChange: (next: Requirement[]) => void;
  errors?: RequirementErrors;
  readOnly?: boolean;
}) {
  const { bootstrap } = useSession();
  const types = bootstrap?.activityTypes ?? [];
  const codes = new Set(types.map((t) => t.code));
  // Requirements on types the customer can no longer order still show (read-only rows).
  const extra = value.filter((r) => !codes.has(r.activity_type));
  const all = [
    ...types.map((t) => ({ code: t.code, name: activityName(t.code, t.name) })),
    ...extra.map((r) => ({ code: r.activity_type, name: activityName(r.activity_type) })),
  ];
  // Read-only, only the checks the process runs are shown.
  const rows = readOnly
    ? all.filter((row) => value.some((r) => r.activity_type === row.code))
    : all;
  const toggle = (code: string, on: boolean) =>
    onChange(
      on
        ? [...value, { activity_type: code, config: {} }]
        : value.filter((r) => r.activity_type !== code),
    );
  const setConfig = (code: string, config: ActivityConfig) =>
    onChange(value.map((r) => (r.activity_type === code ? { ...r, config } : r)));

  if (rows.length === 0) {
    return <Text c="dimmed">Your organisation has no kinds of check to choose from yet.</Text>;
  }
  return (
    <Stack gap="sm" data-testid="requirements">
      {rows.map((row) => {
        const requirement = value.find((r) => r.activity_type === row.code);
        return (
          <Paper key={row.code} withBorder radius="md" p="md">
            <Checkbox
              label={row.name}
              checked={Boolean(requirement)}
              disabled={readOnly}
              onChange={(e) => toggle(row.code, e.currentTarget.checked)}
              styles={{ label: { fontWeight: 600 } }}
            />
            {requirement && requirementConfigFields(row.code).length > 0 && (
              <Stack gap="xs" mt="sm" pl={{ base: 0, sm: 32 }}>
                <ActivityConfigForm
                  kind={row.code}
                  idPrefix={`req-${row.code}`}
                  value={requirement.config}
                  onChange={(c) => setConfig(row.code, c)}
                  errors={errors[row.code]}
                  readOnly={readOnly}
                />
              </Stack>
            )}
          </Paper>
        );
      })}
    </Stack>
  );
}

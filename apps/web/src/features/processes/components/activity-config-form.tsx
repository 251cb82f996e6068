import {
  type ActivityConfig,
  EMPLOYER_NAME_SOURCES,
  EMPLOYMENT_SECTORS,
  isRequirementFieldShown,
  PURPOSE_OPTIONS,
  REQUIREMENT_CONFIG_LABELS,
  type RequirementConfigField,
  requirementConfigFields,
  SCHEME_TYPES,
  WORKFORCE_OPTIONS,
} from '@kestrel/domain';
import { Checkbox, NativeSelect, SimpleGrid, TagsInput, TextInput } from '@mantine/core';

const SELECTS: Partial<
  Record<RequirementConfigField, readonly { value: string; label: string }[]>
> = {
  purpose: PURPOSE_OPTIONS,
  employment_sector: EMPLOYMENT_SECTORS,
  employer_name_source: EMPLOYER_NAME_SOURCES,
  workforce: WORKFORCE_OPTIONS,
  scheme_type: SCHEME_TYPES,
};
const FLAGS: RequirementConfigField[] = [
  'paper_cert',
  'volunteer',
  'adult_barred_list',
  'child_barred_list',
  'working_at_home_address',
  'include_cpc',
  'include_tacho',
];

/** The activity configuration of one requirement (spec point 3's config fields). */
export function ActivityConfigForm({
  kind,
  value,
  onChange,
  errors = {},
  readOnly = false,
  idPrefix,
}: {
  kind: string;
  value: ActivityConfig;
  onChange: (next: ActivityConfig) => void;
  errors?: Partial<Record<string, string>>;
  readOnly?: boolean;
  idPrefix: string;
}) {
  const fields = requirementConfigFields(kind).filter((f) => isRequirementFieldShown(f, value));
  if (fields.length === 0) return null;
  const set = (field: RequirementConfigField, v: unknown) => onChange({ ...value, [field]: v });
  const flags = fields.filter((f) => FLAGS.includes(f));
  const others = fields.filter((f) => !FLAGS.includes(f));
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {others.map((field) => {
          const label = REQUIREMENT_CONFIG_LABELS[field];
          const options = SELECTS[field];
          const error = errors[field];
          if (options) {
            return (
              <NativeSelect
                key={field}
                id={`${idPrefix}-${field}`}
                label={label}
                size="sm"
                disabled={readOnly}
                error={error}
                value={String(value[field] ?? '')}
                onChange={(e) => set(field, e.currentTarget.value || null)}
                data={[{ value: '', label: 'Not set' }, ...options]}
              />
            );
          }
          if (field === 'collectors') {
            return (
              <TagsInput
                key={field}
                id={`${idPrefix}-${field}`}
                label={label}
                size="sm"
                description="Press Enter after each name"
                disabled={readOnly}
                error={error}
                value={value.collectors ?? []}
                onChange={(v) => set(field, v)}
              />
            );
          }
          return (
            <TextInput
              key={field}
              id={`${idPrefix}-${field}`}
              label={label}
              size="sm"
              disabled={readOnly}
              error={error}
              value={String(value[field] ?? '')}
              onChange={(e) => set(field, e.currentTarget.value || null)}
            />
          );
        })}
      </SimpleGrid>
      {flags.length > 0 && (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" mt="sm">
          {flags.map((field) => (
            <Checkbox
              key={field}
              id={`${idPrefix}-${field}`}
              label={REQUIREMENT_CONFIG_LABELS[field]}
              disabled={readOnly}
              checked={Boolean(value[field])}
              onChange={(e) => set(field, e.currentTarget.checked)}
            />
          ))}
        </SimpleGrid>
      )}
    </>
  );
}

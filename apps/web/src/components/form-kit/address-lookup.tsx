import {
  type ComposedAddress,
  composeOsAddress,
  ERROR_TEXTS,
  type OsAddress,
  postcodeLookupSchema,
} from '@kestrel/domain';
import { Button, Group, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { useId, useState } from 'react';
import { lookupPostcode } from '../../api/case-addresses';
import type { CaseDataAudience } from '../../api/case-data';

/**
 * Finds the addresses of a postcode (the fake lookup by default) and fills the form with the
 * chosen one. At least 5 characters ('Min 5 characters'); a failed lookup says 'An error has
 * occurred'; the fields below can always be filled in by hand.
 */
export function AddressLookup({
  audience,
  onChoose,
}: {
  audience: CaseDataAudience;
  onChoose: (address: ComposedAddress, raw: OsAddress) => void;
}) {
  const id = useId();
  const [postcode, setPostcode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [found, setFound] = useState<OsAddress[] | null>(null);
  const find = async () => {
    setFailed(false);
    setFound(null);
    const checked = postcodeLookupSchema.safeParse(postcode);
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? null);
      return;
    }
    setError(null);
    setBusy(true);
    const result = await lookupPostcode(checked.data, audience);
    setBusy(false);
    if (result.ok) {
      setFound(result.addresses);
      return;
    }
    // A postcode the lookup cannot read says why on the field; anything else is a failure.
    const said = result.body.postcode;
    const message = Array.isArray(said) && typeof said[0] === 'string' ? said[0] : null;
    if (message) setError(message);
    else setFailed(true);
  };
  const labelOf = (a: OsAddress) => {
    const c = composeOsAddress(a);
    return [c.line_one, c.line_two, c.town, c.postcode].filter(Boolean).join(', ');
  };
  return (
    <Stack gap={6} data-testid="address-lookup">
      <Group align="flex-end" gap="xs" wrap="wrap">
        <TextInput
          label="Find an address by postcode"
          placeholder="e.g. SW1A 1AA"
          value={postcode}
          onChange={(e) => setPostcode(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              void find();
            }
          }}
          error={error}
          style={{ flex: '1 1 12rem' }}
          id={id}
        />
        <Button
          size="md"
          variant="light"
          onClick={() => void find()}
          loading={busy}
          // Beside the input, not its error line.
          mb={error ? 26 : 0}
        >
          Find address
        </Button>
      </Group>
      {failed && (
        <Text size="sm" c="var(--mantine-color-error)" role="alert">
          {ERROR_TEXTS.defaultError}
        </Text>
      )}
      {found && found.length === 0 && (
        <Text size="sm" c="dimmed">
          No addresses found. Enter the address below.
        </Text>
      )}
      {found && found.length > 0 && (
        <NativeSelect
          size="md"
          label="Choose the address"
          data={[
            { value: '', label: `${found.length} addresses found` },
            ...found.map((a, i) => ({ value: String(i), label: labelOf(a) })),
          ]}
          onChange={(e) => {
            const raw = found[Number(e.currentTarget.value)];
            if (e.currentTarget.value !== '' && raw) onChoose(composeOsAddress(raw), raw);
          }}
        />
      )}
      <Text size="xs" c="dimmed">
        Or enter the address by hand below.
      </Text>
    </Stack>
  );
}

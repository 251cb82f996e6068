import { Select } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { customerChoices } from '../../api/customers';
import { href } from '../../config/paths';
import { notify } from '../../lib/notify';
import { startOpsSession } from '../../lib/session/session-actions';
import { useSession } from '../../lib/session/session-store';

/** Ops staff choose the customer they act for; the app re-bootstraps inside that customer. */
export function CustomerPicker() {
  const navigate = useNavigate();
  const { sessionCustomer } = useSession();
  const [busy, setBusy] = useState(false);
  const customers = useQuery({ ...customerChoices(), select: (page) => page.results });
  const choose = async (value: string | null) => {
    if (!value) return;
    setBusy(true);
    const ok = await startOpsSession(Number(value));
    setBusy(false);
    if (ok) navigate(href('bootstrap', {}, { next: href('dashboard') }));
    else notify.error('Error starting customer session');
  };
  return (
    <Select
      aria-label="Act for customer"
      placeholder="Act for a customer…"
      data={(customers.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
      value={sessionCustomer ? String(sessionCustomer) : null}
      onChange={choose}
      searchable
      disabled={busy}
      nothingFoundMessage="No customers"
      w={{ base: '100%', sm: 260 }}
      size="sm"
      data-testid="customer-picker"
    />
  );
}

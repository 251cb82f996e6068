import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render';
import { loggedOut, product, productIn, subjectIn } from '../test/sessions';
import { Can, heldRights } from './rights';
import { resetSession, setSession } from './session/session-store';

afterEach(() => resetSession());

describe('rights', () => {
  it('shows what the session may do and hides the rest', () => {
    setSession(productIn(product({ session_permissions: ['cases.add_case'] }), ['subject_dedup']));
    renderWithProviders(
      <>
        <Can permission="cases.add_case">
          <p>add case</p>
        </Can>
        <Can permission={['cases.add_case', 'cases.archive']} fallback={<p>no archive</p>}>
          <p>archive</p>
        </Can>
        <Can entitlement="subject_dedup">
          <p>duplicates</p>
        </Can>
        <Can entitlement="cycles">
          <p>cycles</p>
        </Can>
      </>,
    );
    expect(screen.getByText('add case')).toBeTruthy();
    expect(screen.getByText('no archive')).toBeTruthy();
    expect(screen.queryByText('archive')).toBeNull();
    expect(screen.getByText('duplicates')).toBeTruthy();
    expect(screen.queryByText('cycles')).toBeNull();
  });

  it('gives subjects and visitors no rights', () => {
    for (const session of [loggedOut, subjectIn()]) {
      expect(heldRights(session)).toEqual({ permissions: [], entitlements: [] });
    }
  });
});

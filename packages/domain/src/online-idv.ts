export interface IdvScheme {
  name?: string;
  requirements_met?: boolean | null;
}

/** The online identity check data of a case portal (spec point 3), as far as the rule reads it. */
export interface OnlineIdvData {
  /** The bank-verified flag. */
  ibv_verified?: boolean | null;
  manual_idv_approved?: boolean | null;
  id_profile?: { schemes?: readonly IdvScheme[] | null } | null;
}

/**
 * Online identity counts as verified when the bank-verified flag is set or any scheme's
 * requirements are met, unless manual approval was given (then identity was checked by hand).
 */
export function isOnlineIdentityVerified(data: OnlineIdvData | null | undefined): boolean {
  if (!data || data.manual_idv_approved) return false;
  if (data.ibv_verified) return true;
  return (data.id_profile?.schemes ?? []).some((s) => s.requirements_met === true);
}

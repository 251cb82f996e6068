/** A bearer token for OS Places (the browser's live postcode search), as the API returns it. */
export interface OsDatahubToken {
  access_token: string;
  /** Seconds the token stays valid from now. */
  expires_in: number;
}

/**
 * The Ordnance Survey Data Hub's OAuth2 client-credentials token (PROVIDERS.md): one token for
 * everyone, cached until shortly before it expires. Absent (null in AppDeps) when no
 * OS_DATAHUB_KEY / OS_DATAHUB_SECRET are configured: the fake lookup is used then.
 */
export interface OsDatahubTokenProvider {
  token(): Promise<OsDatahubToken>;
}

/** The provider could not give a token (network, credentials, an unexpected answer). */
export class OsDatahubError extends Error {}

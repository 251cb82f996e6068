export { startSso } from './api';
export { SsoCallback } from './sso-callback';
export { SsoError } from './sso-error';
export { SsoSettings } from './sso-settings';

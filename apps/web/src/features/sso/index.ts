export { SsoSettings } from './sso-settings';

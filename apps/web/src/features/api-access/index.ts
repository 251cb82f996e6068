export { ApiKeysSection } from './api-keys-section';
export { WebhooksSection } from './webhooks-section';

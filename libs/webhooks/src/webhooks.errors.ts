import { domainError } from '@dl/platform/http';

export class WebhookNotFoundError extends domainError('WEBHOOK_NOT_FOUND', 'Webhook not found') {}

export class WebhookLimitError extends domainError('WEBHOOK_LIMIT', 'Webhook limit reached for your plan') {}

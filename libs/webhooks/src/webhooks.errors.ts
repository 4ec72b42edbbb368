import { DomainError } from '@dl/platform/http';

export class WebhookNotFoundError extends DomainError {
  constructor() {
    super('WEBHOOK_NOT_FOUND', 'Webhook not found');
  }
}

export class WebhookLimitError extends DomainError {
  constructor() {
    super('WEBHOOK_LIMIT', 'Webhook limit reached for your plan');
  }
}

import { ForbiddenError, NotFoundError } from '@dl/platform/http';

export class WebhookNotFoundError extends NotFoundError {
  constructor() {
    super('Webhook not found');
  }
}

export class ProjectNotFoundError extends NotFoundError {
  constructor() {
    super('Project not found');
  }
}

export class WebhookLimitError extends ForbiddenError {
  constructor() {
    super('Webhook limit reached for your plan');
  }
}

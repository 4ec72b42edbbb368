import { NotFoundError } from '@dl/platform/http';

export class AnalyticsLinkNotFoundError extends NotFoundError {
  constructor() {
    super('Link not found');
  }
}

export class AnalyticsProjectNotFoundError extends NotFoundError {
  constructor() {
    super('Project not found');
  }
}

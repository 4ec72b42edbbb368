import { BadRequestError, NotFoundError } from '@dl/platform/http';

export class ProjectNotFoundError extends NotFoundError {
  constructor() {
    super('Project not found');
  }
}

export class NoProjectUpdatesError extends BadRequestError {
  constructor() {
    super('No updates provided');
  }
}

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Answer, EdgeRequest, RedirectService } from '@dl/redirect';

/**
 * The handler of `/<code>` that both entries call (`redirect.fast-path.ts` for the usual visit,
 * `redirect.routes.ts` for everything else): each only reads the request and writes the answer.
 */
export class RedirectHandler {
  private readonly edge: RedirectService;

  constructor(app: NestFastifyApplication) {
    this.edge = app.get(RedirectService);
  }

  /** `GET|HEAD /<code>`: synchronous for a cached link; `/<code>+` is the link's public stats page. */
  visit(req: EdgeRequest, code: string): Answer | Promise<Answer> {
    return this.edge.visit(req, code);
  }

  /** `POST /<code>`: the password form (decisions §16). */
  unlock(req: EdgeRequest, code: string, password: unknown): Promise<Answer> {
    return this.edge.unlock(req, code, password);
  }
}

/** RFC 7644 §3.12: the error body every /scim/v2 answer uses. */
export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

export type ScimType = 'invalidFilter' | 'invalidValue' | 'invalidSyntax' | 'invalidPath' | 'noTarget' | 'uniqueness' | 'mutability' | 'tooMany';

/** A refusal in SCIM's own shape (not the REST API's): `{schemas, status, scimType?, detail}`. */
export class ScimError extends Error {
  constructor(
    readonly status: 400 | 401 | 404 | 409 | 413 | 500,
    readonly detail: string,
    readonly scimType?: ScimType,
  ) {
    super(detail);
  }

  body(): { schemas: string[]; status: string; scimType?: ScimType; detail: string } {
    return { schemas: [SCIM_ERROR_SCHEMA], status: String(this.status), ...(this.scimType ? { scimType: this.scimType } : {}), detail: this.detail };
  }
}

export const scimNotFound = (what: 'User' | 'Group', id: string) => new ScimError(404, `${what} ${id.slice(0, 100)} not found`);

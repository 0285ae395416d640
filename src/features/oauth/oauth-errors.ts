/**
 * An error of the OAuth protocol endpoints (RFC 6749 section 5.2, RFC 7591 section 3.2.2):
 * answered as `{error, error_description}`, not the REST error body, because OAuth clients
 * read those two fields.
 */
export class OAuthError extends Error {
  readonly status: number;
  readonly error: string;
  constructor(error: string, description: string, status = 400) {
    super(description);
    this.error = error;
    this.status = status;
  }
  toJSON() {
    return { error: this.error, error_description: this.message };
  }
}

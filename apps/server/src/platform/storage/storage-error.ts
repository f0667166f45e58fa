// Errors in the shape storage-js reads: `{ statusCode, error, message }` (statusCode a string, as Supabase sends it).
// `error` is a stable code; `message` is for people.
export class StorageError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }

  toJSON(): { statusCode: string; error: string; message: string } {
    return { statusCode: String(this.status), error: this.code, message: this.message };
  }
}

export const notFound = (what: "Object" | "Bucket" = "Object") =>
  new StorageError(404, "not_found", `${what} not found`);

export const duplicate = (what: "object" | "bucket") =>
  new StorageError(409, "Duplicate", `A ${what === "object" ? "file" : "bucket"} with that name already exists`);

export const invalid = (message: string) => new StorageError(400, "InvalidRequest", message);

// Issue 11: supplier discount forms and project registrations, each with its public page (issue 11), on the documents engine.
export function registerPartners(): void {}

/** Metadata keys of the auth decorators, read by the guards (kept apart so guards and decorators do not import each other). */
export const IS_PUBLIC = 'auth:isPublic';
export const REQUIRED_SCOPES = 'auth:requiredScopes';
export const BASIC_SCOPES = 'auth:basicScopes';
export const REQUIRED_ROLE = 'auth:requiredRole';
export const PEOPLE_ONLY_WITH_QUERY = 'auth:peopleOnlyWithQuery';

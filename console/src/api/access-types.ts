/**
 * The people and session routes, typed by hand from the agreed API until `openapi.json`
 * describes them; then `npm run client:generate` gives the same names in `schema.d.ts` and this
 * module goes (the client's `paths` stop being intersected with `AccessPaths`).
 */
export const ROLES = ['support', 'fiscal', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export interface SessionUserDto {
  id: string;
  email: string;
  name: string;
  role: Role;
}

export interface SessionDto {
  user: SessionUserDto;
  csrfToken: string;
  idleExpiresAt: string;
  expiresAt: string;
}

export interface SignInOptionsDto {
  password: boolean;
  singleSignOn: { name: string; url: string } | null;
}

export interface PasswordLinkDto {
  email: string;
  name: string;
  expiresAt: string;
}

export interface UserDto {
  id: string;
  email: string;
  name: string;
  role: Role;
  active: boolean;
  passwordSet: boolean;
  createdAt: string;
  lastSignInAt: string | null;
}

export interface OneTimeLinkDto {
  link: string;
  linkExpiresAt: string;
}

export interface InvitedUserDto extends OneTimeLinkDto {
  user: UserDto;
}

export interface PageDto<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
  totalPages: number;
}

export interface AccessErrorDto {
  error: string;
  message: string;
  details?: { field?: string; problem?: string; [typed: string]: unknown }[];
}

type Headers = { [name: string]: unknown };
type JsonOf<T> = { headers: Headers; content: { 'application/json': T } };
type Empty = { headers: Headers; content?: never };
/** The error answers every one of these routes may give, in the admin family's shape. */
type Errors = { [S in 400 | 401 | 403 | 404 | 409 | 429]: JsonOf<AccessErrorDto> };

/** One operation in the shape openapi-typescript generates, so that openapi-fetch reads it as it reads the generated ones. */
type Operation<Success, Body = undefined, Path = undefined, Query = undefined> = {
  parameters: {
    query?: Query extends undefined ? never : Query;
    header?: never;
    cookie?: never;
  } & (Path extends undefined ? { path?: never } : { path: Path });
  responses: Success & Errors;
} & (Body extends undefined ? { requestBody?: never } : { requestBody: { content: { 'application/json': Body } } });

type Method = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';
type PathItem<Ops extends Partial<Record<Method, unknown>>> = Ops & { [M in Exclude<Method, keyof Ops>]?: never } & {
  parameters: { query?: never; header?: never; path?: never; cookie?: never };
};

type PageQuery = { page?: number | string; pageSize?: number | string };
export interface AccessPaths {
  '/api/auth/sign-in-options': PathItem<{ get: Operation<{ 200: JsonOf<SignInOptionsDto> }> }>;
  '/api/auth/session': PathItem<{
    get: Operation<{ 200: JsonOf<SessionDto> }>;
    post: Operation<{ 200: JsonOf<SessionDto> }, { email: string; password: string }>;
    delete: Operation<{ 204: Empty }>;
  }>;
  '/api/auth/session/password': PathItem<{
    put: Operation<{ 200: JsonOf<SessionDto> }, { currentPassword: string; newPassword: string }>;
  }>;
  '/api/auth/password-links/{token}': PathItem<{
    get: Operation<{ 200: JsonOf<PasswordLinkDto> }, undefined, { token: string }>;
    post: Operation<{ 204: Empty }, { password: string }, { token: string }>;
  }>;
  '/api/admin/users': PathItem<{
    get: Operation<{ 200: JsonOf<PageDto<UserDto>> }, undefined, undefined, PageQuery>;
    post: Operation<{ 201: JsonOf<InvitedUserDto> }, { email: string; name: string; role: Role }>;
  }>;
  '/api/admin/users/{id}': PathItem<{
    get: Operation<{ 200: JsonOf<UserDto> }, undefined, { id: string }>;
    patch: Operation<{ 200: JsonOf<UserDto> }, { name?: string; role?: Role; active?: boolean }, { id: string }>;
  }>;
  '/api/admin/users/{id}/link': PathItem<{ post: Operation<{ 201: JsonOf<OneTimeLinkDto> }, undefined, { id: string }> }>;
}

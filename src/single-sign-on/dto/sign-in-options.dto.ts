export class SingleSignOnOptionDto {
  /** The provider's name, for the button ("Sign in with …"). */
  name!: string;
  /** Where the browser goes to sign in through the provider (a top-level navigation, not a fetch). */
  url!: string;
}

export class SignInOptionsDto {
  /** Always true: email and password sign-in is always offered. */
  password!: boolean;
  /** The OpenID Connect provider, or null when none is configured. */
  singleSignOn!: SingleSignOnOptionDto | null;
}

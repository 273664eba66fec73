/**
 * URL-mode elicitation: which URLs Silo lets a user open (absolute http and https only) and how a URL
 * is split for display. Pure; never throws.
 * @packageDocumentation
 */
/** The URL `value` parses to, or undefined when it does not parse (never throws). */
export function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/** True only for an absolute `http:` or `https:` URL: the only kind Silo lets a user open. */
export function isOpenableUrl(url: string): boolean {
  const parsed = parseUrl(url);
  return parsed !== undefined && (parsed.protocol === 'http:' || parsed.protocol === 'https:');
}

/** A URL split for display: the host to emphasise between what comes before and after it. */
export interface ElicitationUrlParts {
  /** The full URL, as the URL parser serializes it (IDN hosts appear in punycode). */
  readonly href: string;
  readonly before: string;
  readonly host: string;
  readonly after: string;
  /** True for `http:`/`https:` only. */
  readonly openable: boolean;
  /** True when a host label is punycode (`xn--`): it may imitate another site. */
  readonly punycode: boolean;
}

/**
 * Splits a URL for display. An unparseable URL comes back whole in `before`, with no host, not openable.
 */
export function describeUrl(url: string): ElicitationUrlParts {
  const parsed = parseUrl(url);
  if (!parsed) return { href: url, before: url, host: '', after: '', openable: false, punycode: false };
  const href = parsed.href;
  const host = parsed.host;
  const userinfo =
    parsed.username || parsed.password
      ? `${parsed.username}${parsed.password ? `:${parsed.password}` : ''}@`
      : '';
  const prefix = `${parsed.protocol}//${userinfo}`;
  const at = host && href.startsWith(prefix + host) ? prefix.length : -1;
  const punycode = parsed.hostname.split('.').some((label) => label.toLowerCase().startsWith('xn--'));
  const openable = parsed.protocol === 'http:' || parsed.protocol === 'https:';
  if (at < 0) return { href, before: href, host: '', after: '', openable, punycode };
  return { href, before: href.slice(0, at), host, after: href.slice(at + host.length), openable, punycode };
}

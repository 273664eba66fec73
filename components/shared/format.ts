/**
 * Number, percent, currency and date formatting through `Intl`, cached per locale. A currency that is
 * not an ISO 4217 code (for example `"credits"`) is shown as a number followed by the unit. Also the
 * small text helpers of the row templates (class tokens, clipping, JSON, a URI's file name).
 * @packageDocumentation
 */

const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

function numberFormat(locale: string | undefined, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `n|${locale ?? ''}|${JSON.stringify(options)}`;
  let f = cache.get(key) as Intl.NumberFormat | undefined;
  if (!f) {
    f = new Intl.NumberFormat(locale, options);
    cache.set(key, f);
  }
  return f;
}

/** Formats an integer count (tokens). */
export function formatNumber(n: number, locale?: string): string {
  return numberFormat(locale, { maximumFractionDigits: 0 }).format(n);
}

/** Formats a count short (`3.4K`, `12M`: Intl's compact notation), for tokens beside other text. */
export function formatCompact(n: number, locale?: string): string {
  return numberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 }).format(n);
}

/**
 * A duration in milliseconds as the `seconds` / `minutes` strings word it: one decimal under 10 s
 * (`1.2`), whole seconds under a minute, then minutes and seconds.
 */
export function formatDuration(
  ms: number,
  s: { seconds(n: string): string; minutes(m: string, s: string): string },
  locale?: string,
): string {
  const secs = Math.max(0, ms) / 1000;
  if (secs < 10)
    return s.seconds(
      numberFormat(locale, { maximumFractionDigits: 1, minimumFractionDigits: 1 }).format(
        Math.floor(secs * 10) / 10,
      ),
    );
  if (secs < 60) return s.seconds(formatNumber(Math.floor(secs), locale));
  return s.minutes(formatNumber(Math.floor(secs / 60), locale), formatNumber(Math.floor(secs % 60), locale));
}

/** Formats a ratio 0..1 as a percentage. */
export function formatPercent(ratio: number, locale?: string): string {
  return numberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(ratio);
}

/** Formats a cost in its currency, with enough digits for sub-cent amounts. */
export function formatCost(amount: number, currency: string, locale?: string): string {
  if (/^[A-Za-z]{3}$/.test(currency)) {
    try {
      return numberFormat(locale, {
        style: 'currency',
        currency: currency.toUpperCase(),
        maximumFractionDigits: amount !== 0 && Math.abs(amount) < 1 ? 4 : 2,
      }).format(amount);
    } catch {
      // Not a currency Intl knows: fall through to number + unit.
    }
  }
  return `${numberFormat(locale, { maximumFractionDigits: 4 }).format(amount)} ${currency}`;
}

/** Formats an ISO 8601 timestamp as a short time (or date and time when not today). */
export function formatTime(iso: string, locale?: string): string | undefined {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return undefined;
  const today = new Date().toDateString() === d.toDateString();
  const key = `d|${locale ?? ''}|${today}`;
  let f = cache.get(key) as Intl.DateTimeFormat | undefined;
  if (!f) {
    f = new Intl.DateTimeFormat(
      locale,
      today ? { timeStyle: 'short' } : { dateStyle: 'medium', timeStyle: 'short' },
    );
    cache.set(key, f);
  }
  return f.format(d);
}

/** `s` as a class or attribute token: only letters, digits, `_` and `-`, at most 40 characters. */
export function safeClass(s: string): string {
  return String(s)
    .replace(/[^a-z0-9_-]/gi, '_')
    .slice(0, 40);
}

/** `s` cut to `n` characters (an ellipsis marks the cut). */
export function clip(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}

/** `v` as indented JSON; empty when it cannot be serialized (a cycle, a BigInt). Never throws. */
export function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v, null, 2) ?? '';
  } catch {
    return '';
  }
}

/**
 * The file name a URI ends in, for people: `attachment:///notes.txt` (how `<silo-chat>` names the
 * files it sends) and `file:///home/me/notes.txt` are `notes.txt`; `''` when there is none.
 */
export function fileNameOf(uri: string): string {
  const path = uri.replace(/[?#].*$/, '').replace(/\/+$/, '');
  const last = path.slice(path.lastIndexOf('/') + 1);
  if (!last || /^[a-z][\w+.-]*:$/i.test(last)) return '';
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

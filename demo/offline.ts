/**
 * The offline viewer: renders an exported JSONL transcript from a file or a URL (`?src=` works too)
 * with `<silo-transcript>` alone — no bridge, no agent, no worker. A URL must be of the demo's own
 * origin: a link to `?src=https://attacker/…` would otherwise show attacker-written content under
 * the demo's address (a file the user picks can come from anywhere).
 */
import 'silo-acp/components';

const viewer = document.querySelector('silo-transcript')!;
const form = document.getElementById('open-form') as HTMLFormElement;
const fileInput = document.getElementById('file') as HTMLInputElement;
const srcInput = document.getElementById('src') as HTMLInputElement;
const status = document.getElementById('status')!;

/** The URL resolved against this page, if it is of this page's origin. */
function sameOrigin(src: string): string | undefined {
  try {
    const url = new URL(src, location.href);
    return url.origin === location.origin ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function show(source: { file: File } | { src: string }): void {
  status.textContent = '';
  status.classList.remove('error');
  if ('src' in source && !sameOrigin(source.src)) {
    viewer.src = undefined;
    status.textContent = 'Refused: only transcripts from this site open by URL. Use “Open file…” for others.';
    status.classList.add('error');
    status.dataset.refused = '';
    return;
  }
  if ('file' in source) {
    viewer.src = undefined;
    viewer.file = source.file;
    document.title = `${source.file.name} — Silo offline viewer`;
  } else {
    viewer.file = undefined;
    viewer.src = sameOrigin(source.src);
    document.title = `${source.src} — Silo offline viewer`;
  }
  void viewer.updateComplete.then(() => {
    if (!status.textContent) status.textContent = `${viewer.model.rows.length} rows`;
  });
}

viewer.addEventListener('silo-load-error', (e) => {
  status.textContent = `Cannot open it: ${e.detail.error.message}`;
  status.classList.add('error');
});
fileInput.addEventListener('change', () => {
  const file = fileInput.files?.[0];
  if (file) show({ file });
});
form.addEventListener('submit', (e) => {
  e.preventDefault();
  const src = srcInput.value.trim();
  if (src) {
    history.replaceState(null, '', `?src=${encodeURIComponent(src)}`);
    show({ src });
  }
});

const initial = new URLSearchParams(location.search).get('src');
if (initial) {
  srcInput.value = initial;
  show({ src: initial });
}

// The elements' types for framework templates, generated at build time (scripts/build.mjs) from
// custom-elements.json into dist/types/frameworks/: `silo-acp/react` (React 19 JSX
// `IntrinsicElements`), `silo-acp/vue` (Vue `GlobalComponents`) and `silo-acp/svelte` (Svelte
// `SvelteHTMLElements`). The manifest says which element has which settable properties and events;
// their types are the element classes' own (`SiloChat['service']`) and the events'
// `GlobalEventHandlersEventMap` entries, so nothing is typed twice. One file per framework: each
// augments its framework's module, which must resolve, so an app imports only its own framework's.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The elements of `manifest` (a custom-elements.json object): tag, class, the class's declaration
 * module (relative to dist/types/frameworks/), the public writable instance fields, and the events.
 * Throws if an element has no tag or class name.
 */
export function elementsOf(manifest) {
  const elements = [];
  for (const mod of manifest.modules ?? []) {
    for (const d of mod.declarations ?? []) {
      if (!d.customElement || !d.tagName) continue;
      if (!d.name) throw new Error(`${mod.path}: <${d.tagName}> has no class name`);
      const fields = (d.members ?? []).filter(
        (m) =>
          m.kind === 'field' &&
          !m.static &&
          !m.readonly &&
          !m.inheritedFrom &&
          (m.privacy ?? 'public') === 'public' &&
          !m.name.startsWith('#'),
      );
      elements.push({
        tag: d.tagName,
        className: d.name,
        from: `../${mod.path.replace(/\.ts$/, '.js')}`,
        fields: fields.map((f) => ({ name: f.name, description: f.description ?? '' })),
        events: (d.events ?? []).map((e) => ({ name: e.name, description: e.description ?? '' })),
      });
    }
  }
  return elements.sort((a, b) => a.tag.localeCompare(b.tag));
}

const doc = (text, indent) =>
  text ? `${indent}/** ${text.replace(/\*\//g, '*\\/').replace(/\s+/g, ' ')} */\n` : '';
const eventType = (name) => `GlobalEventHandlersEventMap['${name}']`;

const HEADER = `// Generated from custom-elements.json by scripts/framework-types.mjs (npm run build): do not edit.
`;

/** Imports of the element classes (type-only). */
const classImports = (elements) =>
  elements.map((e) => `import type { ${e.className} } from '${e.from}';\n`).join('');

/** `name?: Class['name'];` for each field, and `<prefix><event>?: (event) => void;` for each event. */
function members(e, eventPrefixes, indent) {
  let out = '';
  for (const f of e.fields)
    out += `${doc(f.description, indent)}${indent}${f.name}?: ${e.className}['${f.name}'];\n`;
  for (const ev of e.events)
    for (const prefix of eventPrefixes)
      out += `${doc(ev.description, indent)}${indent}'${prefix}${ev.name}'?: (event: ${eventType(ev.name)}) => void;\n`;
  return out;
}

function react(elements) {
  let out = `${HEADER}// React 19: \`import type {} from 'silo-acp/react';\` once, then <silo-chat service={service}
// onsilo-session={(e) => …} />. React sets a prop as a property when the element has one (import
// 'silo-acp/components' before rendering), and adds a listener for a function prop named on<event>.
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
${classImports(elements)}`;
  for (const e of elements)
    out += `\n/** \`<${e.tag}>\`'s properties and events as React 19 props. */\nexport interface ${e.className}ReactProps {\n${members(e, ['on'], '  ')}}\n`;
  out += `\ndeclare module 'react' {\n  namespace JSX {\n    interface IntrinsicElements {\n`;
  for (const e of elements)
    out += `      '${e.tag}': DetailedHTMLProps<HTMLAttributes<${e.className}>, ${e.className}> & ${e.className}ReactProps;\n`;
  return `${out}    }\n  }\n}\n`;
}

function vue(elements) {
  let out = `${HEADER}// Vue 3: \`import type {} from 'silo-acp/vue';\` once, and compilerOptions.isCustomElement for
// tags starting with silo- (so Vue does not look for a component); then <silo-chat :service="service"
// @silo-session="onSession" />. Vue sets a bound value as a property when the element has one.
// The shape Vue's guide gives for elements not built with Vue: $props and $emit are for template
// type-checking only, not on the element.
import type { EmitFn, HTMLAttributes, PublicProps } from 'vue';
${classImports(elements)}`;
  for (const e of elements) {
    out += `\n/** \`<${e.tag}>\` in Vue templates: its properties and events. */\nexport type ${e.className}Vue = new () => ${e.className} & {\n`;
    out += `  /** @deprecated For template type-checking only: not on the element. */\n`;
    out += `  $props: HTMLAttributes & PublicProps & {\n${members(e, [], '    ')}  };\n`;
    out += `  /** @deprecated For template type-checking only: not on the element. */\n  $emit: EmitFn<{\n`;
    for (const ev of e.events) out += `    '${ev.name}': (event: ${eventType(ev.name)}) => void;\n`;
    out += `  }>;\n};\n`;
  }
  out += `\ndeclare module 'vue' {\n  interface GlobalComponents {\n`;
  for (const e of elements) out += `    '${e.tag}': ${e.className}Vue;\n`;
  return `${out}  }\n}\n`;
}

function svelte(elements) {
  let out = `${HEADER}// Svelte 5: \`import type {} from 'silo-acp/svelte';\` once (in a .d.ts or a <script lang="ts">),
// then <silo-chat service={service} onsilo-session={(e) => …} /> (or on:silo-session). Svelte sets a
// value as a property when the element has one, and listens to on<event>.
import type { HTMLAttributes } from 'svelte/elements';
${classImports(elements)}`;
  for (const e of elements)
    out += `\n/** \`<${e.tag}>\`'s attributes, properties and events in Svelte markup. */\nexport interface ${e.className}SvelteAttributes extends HTMLAttributes<${e.className}> {\n${members(e, ['on', 'on:'], '  ')}}\n`;
  out += `\ndeclare module 'svelte/elements' {\n  interface SvelteHTMLElements {\n`;
  for (const e of elements) out += `    '${e.tag}': ${e.className}SvelteAttributes;\n`;
  return `${out}  }\n}\n`;
}

/** The generated files: name → contents. */
export function frameworkTypes(manifest) {
  const elements = elementsOf(manifest);
  if (elements.length === 0) throw new Error('custom-elements.json lists no element');
  return { 'react.d.ts': react(elements), 'vue.d.ts': vue(elements), 'svelte.d.ts': svelte(elements) };
}

/** Reads `manifestPath` and writes {@link frameworkTypes} into `outDir`. */
export function writeFrameworkTypes(manifestPath, outDir) {
  const files = frameworkTypes(JSON.parse(readFileSync(manifestPath, 'utf8')));
  mkdirSync(outDir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(outDir, name), text);
}

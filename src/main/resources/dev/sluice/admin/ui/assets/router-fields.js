// The router settings that change at run time, as form fields: each makes its control, shows
// the API's value in it, and reads it back in the API's canonical form (numbers, seconds,
// LiteLLM's list of single-key fallback maps), or an error to show beside it. A fallback field
// left untouched reads back exactly the value it showed, so Save never rewrites it.

import { h, commaList } from './dom.js';

/** LiteLLM's routing strategies, as the gateway accepts them. */
const STRATEGIES = ['simple-shuffle', 'least-busy', 'usage-based-routing', 'usage-based-routing-v2',
  'latency-based-routing', 'cost-based-routing'];

function number({ integer }) {
  return {
    control: () => h('input', { type: 'text', inputmode: integer ? 'numeric' : 'decimal', autocomplete: 'off' }),
    show: (control, value) => { control.value = value === null || value === undefined ? '' : String(value); },
    read: control => {
      const text = control.value.trim();
      if (text === '') return { error: 'Enter a number, or use Reset to go back to the file\'s value.' };
      const value = Number(text);
      if (!Number.isFinite(value)) return { error: `"${text}" is not a number.` };
      if (integer && !Number.isInteger(value)) return { error: 'Enter a whole number.' };
      return { value };
    },
    canonical: value => value,
  };
}

/**
 * Fallbacks as text, one "group => fallback, fallback" per line ⇄ LiteLLM's list of
 * single-key maps. "=>" is the separator because group names and targets may hold colons
 * (llama3:8b, ollama/llama3:8b); a line without "=>" is still read as "group: a, b" when it
 * holds exactly one colon followed by a space, the only place that line can be split.
 */
export function fallbackText(value) {
  return (Array.isArray(value) ? value : [])
    .flatMap(entry => Object.entries(entry || {}).map(([group, targets]) =>
      `${group} => ${Array.isArray(targets) ? targets.join(', ') : targets}`))
    .join('\n');
}

/** The list a fallback text stands for, or `{error}` naming the first line it cannot read. */
export function readFallbacks(text) {
  const value = [];
  const lines = text.split('\n').map(line => line.trim()).filter(Boolean);
  for (const [i, line] of lines.entries()) {
    const split = splitFallbackLine(line);
    if (!split) return { error: `Line ${i + 1} "${line}": write it as group => fallback, fallback.` };
    value.push({ [split[0]]: commaList(split[1]) });
  }
  return { value };
}

function splitFallbackLine(line) {
  let at = line.indexOf('=>');
  let width = 2;
  if (at < 0) {
    at = line.indexOf(': ');
    if (at < 0 || line.indexOf(': ', at + 1) >= 0) return null;
    width = 1;
  }
  const group = line.slice(0, at).trim();
  return group ? [group, line.slice(at + width)] : null;
}

/** The text each control was last filled with, so an untouched field reads back as the value it showed. */
const shown = new WeakMap();

const fallbackMap = {
  control: () => h('textarea', { rows: 3, spellcheck: 'false', autocomplete: 'off' }),
  show: (control, value) => {
    control.value = fallbackText(value);
    shown.set(control, { text: control.value, value });
  },
  read: control => {
    const before = shown.get(control);
    // Untouched: the value as the API gave it, whatever its text would read back as.
    if (before && before.text === control.value) return { value: fallbackMap.canonical(before.value) };
    return readFallbacks(control.value);
  },
  canonical: value => (Array.isArray(value) ? value : []),
};

/** "a, b" ⇄ ["a", "b"]. */
const groupList = {
  control: () => h('input', { type: 'text', spellcheck: 'false', autocomplete: 'off' }),
  show: (control, value) => { control.value = (Array.isArray(value) ? value : []).join(', '); },
  read: control => ({ value: commaList(control.value) }),
  canonical: value => (Array.isArray(value) ? value : []),
};

function choice(options) {
  return {
    control: () => h('select', {}, options.map(([value, label]) => h('option', { value }, label))),
    show: (control, value) => {
      const text = String(value);
      if (![...control.options].some(o => o.value === text)) control.append(h('option', { value: text }, text));
      control.value = text;
    },
    read: control => ({ value: parse(control.value) }),
    canonical: value => value,
  };
}

function parse(text) {
  return text === 'true' ? true : text === 'false' ? false : text;
}

/** The editable settings in the form's order: API name, label, hint, and how the field works. */
export const EDITABLE = [
  { name: 'routing_strategy', label: 'Routing strategy', ...choice(STRATEGIES.map(s => [s, s])) },
  { name: 'num_retries', label: 'Retries', hint: 'Retries per model group (num_retries).', ...number({ integer: true }) },
  { name: 'timeout', label: 'Timeout', hint: 'Seconds for the whole call (timeout).', ...number({ integer: false }) },
  { name: 'allowed_fails', label: 'Allowed fails', hint: 'Failures in a minute before a deployment is benched.', ...number({ integer: true }) },
  { name: 'cooldown_time', label: 'Cooldown time', hint: 'Seconds a benched deployment rests.', ...number({ integer: false }) },
  { name: 'enable_tag_filtering', label: 'Tag filtering', ...choice([['false', 'Off'], ['true', 'On']]) },
  { name: 'fallbacks', label: 'Fallbacks', hint: 'One line per group: group => fallback, fallback.', ...fallbackMap },
  { name: 'context_window_fallbacks', label: 'Context window fallbacks', hint: 'For prompts over a model\'s window; one line per group: group => fallback.', ...fallbackMap },
  { name: 'content_policy_fallbacks', label: 'Content policy fallbacks', hint: 'For content policy refusals; one line per group: group => fallback.', ...fallbackMap },
  { name: 'default_fallbacks', label: 'Default fallbacks', hint: 'Groups tried for any group without its own list, comma separated.', ...groupList },
];

/** A setting's value as text: fallback maps one "group => targets" per line, as the form writes them, else JSON. */
export function describeValue(value) {
  if (value === null || value === undefined) return '—';
  if (Array.isArray(value) && value.length && value.every(e => e && typeof e === 'object' && !Array.isArray(e))) {
    return value.flatMap(e => Object.entries(e).map(([g, t]) => `${g} => ${Array.isArray(t) ? t.join(', ') : JSON.stringify(t)}`)).join('\n');
  }
  if (Array.isArray(value)) return value.length ? value.join(', ') : '(none)';
  if (typeof value === 'object') return Object.keys(value).length ? JSON.stringify(value) : '(none)';
  return String(value);
}

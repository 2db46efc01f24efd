// Small helpers for building the pages' DOM without innerHTML (so nothing the API answers is
// ever parsed as markup) and without inline styles or handlers (the Content-Security-Policy
// forbids both).

/**
 * Makes an element: h('button', {type: 'button', onclick: fn, class: 'primary'}, 'Save').
 * Attributes starting with "on" become listeners; null and false attributes are left out;
 * children may be strings, numbers, nodes, arrays or null.
 */
export function h(tag, attrs, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') {
      element.addEventListener(name.slice(2), value);
    } else if (name === 'class') {
      element.className = value;
    } else if (name === 'value' && 'value' in element) {
      element.value = value;
    } else if (value === true) {
      element.setAttribute(name, '');
    } else {
      element.setAttribute(name, String(value));
    }
  }
  append(element, children);
  return element;
}

function append(parent, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

let ids = 0;
/** A fresh id for pairing a label with its control. */
export function uid(prefix) {
  ids += 1;
  return `${prefix || 'f'}-${ids}`;
}

/**
 * A labelled form field: the label, the control and a place for the API's error about it
 * (shown by showFieldError, tied to the control by aria-describedby).
 * `control` is an element; its id is set when missing.
 */
export function field(label, control, hint) {
  if (!control.id) control.id = uid('field');
  const error = h('p', { class: 'field-error', id: control.id + '-error', hidden: true });
  control.setAttribute('aria-describedby', error.id);
  return h('div', { class: 'field' },
    h('label', { for: control.id }, label),
    control,
    hint ? h('p', { class: 'hint' }, hint) : null,
    error);
}

/** Shows `message` under the control, marking it invalid; null clears it. */
export function showFieldError(control, message) {
  const error = document.getElementById(control.id + '-error');
  if (!error) return;
  error.textContent = message || '';
  error.hidden = !message;
  if (message) control.setAttribute('aria-invalid', 'true');
  else control.removeAttribute('aria-invalid');
}

/** An error banner with role alert (announced at once); message may be a string or an Error. */
export function alertBox(message) {
  return h('div', { class: 'alert', role: 'alert' }, message instanceof Error ? message.message : String(message));
}

/** A status line for successes, announced politely. */
export function notice(message) {
  return h('div', { class: 'notice', role: 'status' }, message);
}

/**
 * A table: columns is [{label, cell: row => node|string, class?}], rows any array.
 * `caption` names it for screen readers; `empty` is shown when there are no rows.
 */
export function table(caption, columns, rows, empty) {
  if (!rows.length) return h('p', { class: 'muted' }, empty || 'Nothing yet.');
  return h('div', { class: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': caption },
    h('table', {},
      h('caption', { class: 'visually-hidden' }, caption),
      h('thead', {}, h('tr', {}, columns.map(c => h('th', { scope: 'col', class: c.class }, c.label)))),
      h('tbody', {}, rows.map(row => h('tr', {}, columns.map(c => h('td', { class: c.class }, c.cell(row))))))));
}

/** Replaces an element's children. */
export function replace(element, ...children) {
  element.replaceChildren();
  append(element, children);
}

/** Dollars with enough digits for a cheap call. */
export function dollars(value) {
  if (value === null || value === undefined || value === '') return '—';
  const n = Number(value);
  if (!Number.isFinite(n)) return String(value);
  if (n !== 0 && Math.abs(n) < 0.01) return '$' + n.toPrecision(2);
  return '$' + n.toFixed(2);
}

/** A time as the reader's locale shows it, or a dash. */
export function when(iso) {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? String(iso) : date.toLocaleString();
}

/** A number or a dash. */
export function num(value) {
  return value === null || value === undefined || value === '' ? '—' : String(value);
}

/** A page's heading, focused on arrival so keyboard and screen reader users start there. */
export function heading(text) {
  return h('h1', { tabindex: '-1', class: 'page-title' }, text);
}

/** "a, b, ,c" as ["a", "b", "c"]: a comma separated list, blanks left out. */
export function commaList(text) {
  return text.split(',').map(v => v.trim()).filter(Boolean);
}

// What the management pages share: a form in a modal <dialog> (Enter submits, Escape closes,
// focus on the first field on open and back on the opening button on close), a confirmation
// dialog, the API's errors shown at the field their `param` names, and reading form values.

import { ApiFailure } from '../api.js';
import { h, uid, alertBox, notice, replace, showFieldError, dollars, commaList } from '../dom.js';
import { whileBusy } from '../busy.js';

/**
 * Opens a modal form. `controls` maps the API's `param` paths to the controls that show
 * their errors; `submit()` sends the form and may answer an element to focus after the
 * dialog closes (else the opener gets focus back). An error of `submit` stays in the dialog.
 */
export function openForm({ title, content, submitLabel, controls, submit, opener }) {
  const titleId = uid('dialog-title');
  const status = h('div', { class: 'status-slot' });
  const save = h('button', { type: 'submit', class: 'primary' }, submitLabel);
  const cancel = h('button', { type: 'button' }, 'Cancel');
  const form = h('form', { class: 'dialog-form', novalidate: true },
    h('h2', { id: titleId }, title), content, status,
    h('div', { class: 'actions' }, save, cancel));
  const dialog = h('dialog', { 'aria-labelledby': titleId }, form);
  let focusAfter = opener;
  let busy = false;
  cancel.addEventListener('click', () => dialog.close());
  dialog.addEventListener('cancel', event => {
    // Escape closes the dialog, but not while its request is in flight.
    if (busy) event.preventDefault();
  });
  dialog.addEventListener('close', () => {
    // Password fields (a deployment's API key) are emptied before the form leaves the page.
    form.querySelectorAll('input[type="password"]').forEach(input => { input.value = ''; });
    dialog.remove();
    refocus(focusAfter);
  });
  form.addEventListener('submit', async event => {
    event.preventDefault();
    if (busy) return;
    clearErrors(controls, status);
    busy = true;
    save.disabled = true;
    cancel.disabled = true;
    try {
      const next = await submit();
      if (next instanceof Element) focusAfter = next;
      dialog.close();
    } catch (e) {
      showApiError(e, controls, status);
    } finally {
      busy = false;
      save.disabled = false;
      cancel.disabled = false;
    }
  });
  document.body.append(dialog);
  dialog.showModal();
  const first = form.querySelector('input, select, textarea');
  if (first) first.focus();
  return dialog;
}

/**
 * Gives focus back to `element`, or, when a refreshed list replaced it, to the button now on
 * the page with the same accessible name.
 */
/**
 * The dialog that creates a record of one kind, or edits the one given: "Create key" with a
 * Create button, or "Edit key <name>" with a Save button.
 */
export function openRecordForm(kind, name, { content, controls, opener, submit }) {
  const editing = name !== null && name !== undefined;
  openForm({
    title: editing ? `Edit ${kind} ${name}` : `Create ${kind}`,
    content,
    submitLabel: editing ? 'Save' : 'Create',
    controls,
    opener,
    submit,
  });
}

export function refocus(element) {
  if (!element) return;
  if (element.isConnected) {
    element.focus();
    return;
  }
  const name = element.getAttribute('aria-label');
  const same = [...document.querySelectorAll('main button')].find(b => (name
    ? b.getAttribute('aria-label') === name : !b.hasAttribute('aria-label') && b.textContent === element.textContent));
  if (same) same.focus();
}

/** Asks before a change that cannot be undone; answers whether the reader confirmed. */
export function confirmAction({ title, message, confirmLabel, opener }) {
  return new Promise(resolve => {
    const titleId = uid('confirm-title');
    const messageId = uid('confirm-message');
    let confirmed = false;
    const yes = h('button', { type: 'button', class: 'danger' }, confirmLabel);
    const no = h('button', { type: 'button' }, 'Cancel');
    const dialog = h('dialog', { role: 'alertdialog', 'aria-labelledby': titleId, 'aria-describedby': messageId },
      h('h2', { id: titleId }, title),
      h('p', { id: messageId }, message),
      h('div', { class: 'actions' }, yes, no));
    yes.addEventListener('click', () => { confirmed = true; dialog.close(); });
    no.addEventListener('click', () => dialog.close());
    dialog.addEventListener('close', () => {
      dialog.remove();
      refocus(opener);
      resolve(confirmed);
    });
    document.body.append(dialog);
    dialog.showModal();
    no.focus();
  });
}

/**
 * Runs `action` with `buttons` disabled ({@link whileBusy}); a failure is shown in `status` as
 * an alert, a success as `success` (a notice) when given. Answers whether it succeeded.
 */
export async function runAction(buttons, status, action, success) {
  try {
    await whileBusy(buttons, action);
    if (success) replace(status, notice(success));
    return true;
  } catch (e) {
    replace(status, alertBox(e));
    return false;
  }
}

/**
 * Previous and next buttons for a list shown a page at a time, with "Page 2 of 5 (120 keys)";
 * nothing when there is one page. `page` holds `number`, `status` and `refresh()`; `noun`
 * names what is listed ("key").
 */
export function pager(page, total, pages, noun) {
  if (pages <= 1) return null;
  const previous = h('button', { type: 'button', disabled: page.number <= 1 }, 'Previous page');
  const next = h('button', { type: 'button', disabled: page.number >= pages }, 'Next page');
  const go = async (by, button) => {
    page.number += by;
    await runAction(button, page.status, () => page.refresh());
  };
  previous.addEventListener('click', () => go(-1, previous));
  next.addEventListener('click', () => go(1, next));
  const label = noun.charAt(0).toUpperCase() + noun.slice(1);
  return h('nav', { class: 'pager', 'aria-label': `${label} pages` }, previous,
    h('span', {}, `Page ${page.number} of ${pages} (${total} ${noun}s)`), next);
}

function clearErrors(controls, status) {
  replace(status);
  for (const control of new Set(Object.values(controls || {}))) showFieldError(control, null);
}

/** The control for an API `param`: the one named exactly, else the nearest enclosing path. */
function controlFor(controls, param) {
  if (!param || !controls) return null;
  if (controls[param]) return controls[param];
  const enclosing = Object.keys(controls)
    .filter(path => param.startsWith(path + '.') || param.startsWith(path + '['))
    .sort((a, b) => b.length - a.length)[0];
  return enclosing ? controls[enclosing] : null;
}

/** The problems a message lists ("The model is not valid: a: x; b: y"), each naming its field first. */
function problems(message) {
  const colon = message.indexOf(': ');
  const listed = colon < 0 ? message : message.slice(colon + 2);
  return listed.split('; ').map(p => p.trim()).filter(Boolean);
}

/** The field a problem starts with ("litellm_params.weight: -1 (expected: >= 0)"). */
function problemField(controls, problem) {
  const match = /^([A-Za-z0-9_.[\]-]+)(:| is )/.exec(problem);
  return match ? controlFor(controls, match[1]) : null;
}

/**
 * Shows an API failure at the field its `param` names, or each listed problem at its field
 * (a model's check names several, without a `param`); what matches no field is an alert.
 */
export function showApiError(error, controls, status) {
  const shown = [];
  const unmatched = [];
  if (error instanceof ApiFailure) {
    const named = controlFor(controls, error.param);
    if (named) {
      showFieldError(named, error.message);
      shown.push(named);
    } else {
      for (const problem of problems(error.message)) {
        const control = problemField(controls, problem);
        if (control) {
          showFieldError(control, problem);
          shown.push(control);
        } else {
          unmatched.push(problem);
        }
      }
    }
  }
  if (!shown.length) {
    replace(status, alertBox(error));
  } else if (unmatched.length) {
    replace(status, alertBox(unmatched.join('; ')));
  }
  if (shown.length) shown[0].focus();
}

/** A text input; `attrs` adds to its attributes. */
export function textInput(value, attrs) {
  return h('input', { type: 'text', value: value === null || value === undefined ? '' : String(value), ...attrs });
}

/** A text input for a number, left as text so the API's own check names a wrong value. */
export function numberInput(value, decimal) {
  return textInput(value, { inputmode: decimal ? 'decimal' : 'numeric', autocomplete: 'off' });
}

/** A trimmed value, or null when empty. */
export function text(control) {
  const value = control.value.trim();
  return value === '' ? null : value;
}

/** A number, the text itself when it is not one (the API then says what is wrong), or null when empty. */
export function number(control) {
  const value = text(control);
  if (value === null) return null;
  const n = Number(value.replace(/^\$/, ''));
  return Number.isFinite(n) ? n : value;
}

/** A comma separated list, blanks left out. */
export function list(control) {
  return commaList(control.value);
}

/** A body without its null fields (a new record: nothing to clear). */
export function withoutNulls(body) {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== null && v !== undefined));
}

/** Spend against a budget: a meter and "$1.20 of $10.00", or the spend and "no budget". */
export function spendCell(spend, maxBudget) {
  const spent = Number(spend || 0);
  if (maxBudget === null || maxBudget === undefined) {
    return h('span', {}, `${dollars(spent)} `, h('span', { class: 'muted' }, '(no budget)'));
  }
  const max = Number(maxBudget);
  const words = `${dollars(spent)} of ${dollars(max)}`;
  return h('span', { class: 'spend' },
    h('meter', { min: 0, max: max > 0 ? max : 1, value: Math.min(spent, max > 0 ? max : 1), low: max * 0.8, high: max * 0.95,
      optimum: 0, 'aria-label': `${words} spent` }),
    h('span', {}, words));
}

/** A key's or team's rate limits in one line ("100 RPM · 10000 TPM"), or "None". */
export function limitsText(entity) {
  const parts = [];
  if (entity.rpm_limit !== null && entity.rpm_limit !== undefined) parts.push(`${entity.rpm_limit} RPM`);
  if (entity.tpm_limit !== null && entity.tpm_limit !== undefined) parts.push(`${entity.tpm_limit} TPM`);
  if (entity.max_parallel_requests !== null && entity.max_parallel_requests !== undefined) {
    parts.push(`${entity.max_parallel_requests} parallel`);
  }
  return parts.length ? parts.join(' · ') : 'None';
}

/**
 * Reloads a page's list after a change (`page.refresh()`, the list in `page.listed`, messages in
 * `page.status`); focus goes to the first button labelled one of `focusNames` in the new list.
 */
export async function refreshAfterChange(page, ...focusNames) {
  try {
    await page.refresh();
  } catch (e) {
    page.status.append(alertBox(`The list could not be reloaded: ${e.message}`));
    return;
  }
  for (const name of focusNames) {
    const button = [...page.listed.querySelectorAll('button')].find(b => b.getAttribute('aria-label') === name);
    if (button) {
      button.focus();
      return;
    }
  }
}

// The Users page: the internal users (/user/list, a page at a time, each with its keys from
// /user/info) with their role, spend against their budget, models, limits and teams; creating a
// user (and, by default, a key for it, whose sk-… secret is shown once), editing and deleting.
// A user's keys are listed by alias and masked name only.

import { api } from '../api.js';
import { h, uid, field, notice, table, replace, when, dollars, heading } from '../dom.js';
import { openRecordForm, confirmAction, runAction, pager, textInput, numberInput, text, number, list, withoutNulls, spendCell, limitsText,
  refreshAfterChange }
  from './forms.js';
import { showSecret } from './secret.js';

const PAGE_SIZE = 25;
/** The roles /user/new and /user/update accept; a new user is an internal_user unless told. */
const ROLES = ['internal_user', 'internal_user_viewer', 'proxy_admin', 'proxy_admin_viewer'];

export async function render(main, ctx) {
  ctx.setTitle('Users');
  const status = h('div', { class: 'status-slot' });
  const secret = h('div', { class: 'secret-slot' });
  const listed = h('div', {});
  const create = h('button', { type: 'button', class: 'primary' }, 'Create user');
  const page = { status, secret, listed, create, number: 1 };
  create.addEventListener('click', () => editUser(page, null, create));
  page.refresh = () => refresh(page);
  replace(main, heading('Users'), h('div', { class: 'toolbar' }, create), secret, status, listed);
  await page.refresh();
}

async function refresh(page) {
  const answer = await api.get('/user/list', { page: page.number, page_size: PAGE_SIZE });
  const pages = Math.max(1, answer.total_pages || 1);
  if (page.number > pages) {
    page.number = pages;
    return refresh(page);
  }
  const users = answer.users || [];
  // Each user's keys come from its /user/info; a user whose info cannot be read is still listed.
  const infos = await Promise.all(users.map(user => api.get('/user/info', { user_id: user.user_id })
    .then(body => ({ keys: body.keys || [] }), error => ({ error }))));
  const rows = users.map((user, i) => ({ user, info: infos[i] }));
  replace(page.listed,
    table('Internal users', columns(page), rows, 'No user yet. A user holds one budget and one set of limits for all of its keys.'),
    pager(page, answer.total || 0, pages, 'user'));
}

function columns(page) {
  return [
    { label: 'User id', cell: r => h('code', {}, r.user.user_id) },
    { label: 'Email', cell: r => r.user.user_email || h('span', { class: 'muted' }, 'none') },
    { label: 'Role', cell: r => r.user.user_role || 'internal_user' },
    { label: 'Spend', cell: r => h('div', {}, spendCell(r.user.spend, r.user.max_budget),
      r.user.budget_duration ? h('div', { class: 'small muted' }, `per ${r.user.budget_duration}, resets ${when(r.user.budget_reset_at)}`)
        : null) },
    { label: 'Models', cell: r => (r.user.models && r.user.models.length ? r.user.models.join(', ') : 'All') },
    { label: 'Limits', cell: r => limitsText(r.user) },
    { label: 'Teams', cell: r => (r.user.teams && r.user.teams.length ? r.user.teams.join(', ') : h('span', { class: 'muted' }, 'none')) },
    { label: 'Keys', cell: r => keysCell(r.user, r.info) },
    { label: 'Actions', cell: r => actions(page, r.user, r.info) },
  ];
}

/** How many keys the user has, opening to their aliases and masked names (never a secret). */
function keysCell(user, info) {
  if (info.error) return h('span', { class: 'muted' }, `unknown (${info.error.message})`);
  const count = `${info.keys.length} key${info.keys.length === 1 ? '' : 's'}`;
  if (!info.keys.length) return count;
  return h('details', { class: 'user-keys' },
    h('summary', { 'aria-label': `${count} of ${user.user_id}` }, count),
    h('ul', {}, info.keys.map(key => h('li', {},
      key.key_alias ? `${key.key_alias} ` : null,
      h('code', { class: 'nowrap' }, key.key_name),
      key.blocked ? [' ', h('span', { class: 'badge bad' }, 'Blocked')] : null))));
}

function actions(page, user, info) {
  const id = user.user_id;
  const edit = h('button', { type: 'button', 'aria-label': `Edit ${id}` }, 'Edit');
  const remove = h('button', { type: 'button', class: 'danger', 'aria-label': `Delete ${id}` }, 'Delete');
  edit.addEventListener('click', () => editUser(page, user, edit));
  remove.addEventListener('click', () => deleteUser(page, user, info, [edit, remove]));
  return h('div', { class: 'actions' }, edit, remove);
}

async function deleteUser(page, user, info, buttons) {
  const id = user.user_id;
  const keys = info.error ? 'all of its keys' : `its ${info.keys.length} key${info.keys.length === 1 ? '' : 's'}`;
  const confirmed = await confirmAction({
    title: 'Delete user?',
    message: `User ${id} will be deleted with ${keys} and its team memberships. This cannot be undone.`,
    confirmLabel: 'Delete',
    opener: buttons[buttons.length - 1],
  });
  if (!confirmed) return;
  let deleted = null;
  const done = await runAction(buttons, page.status, async () => {
    deleted = await api.post('/user/delete', { user_ids: [id] });
  });
  if (!done) return;
  const count = (deleted && deleted.deleted_keys ? deleted.deleted_keys : []).length;
  replace(page.status, notice(`Deleted user ${id} and its ${count} key${count === 1 ? '' : 's'}.`));
  await refreshAfterChange(page);
  page.create.focus();
}

function roleSelect(current) {
  const select = h('select', {}, ROLES.map(role => h('option', { value: role }, role)));
  if (current && !ROLES.includes(current)) select.append(h('option', { value: current }, current));
  select.value = current || 'internal_user';
  return select;
}

/** A checkbox with its label beside it. */
function checkField(label, control) {
  if (!control.id) control.id = uid('field');
  return h('div', { class: 'field check' }, control, h('label', { for: control.id }, label));
}

/** The user's settings as the form shows them, to tell what an edit changed. */
function shown(user) {
  const value = v => (v === null || v === undefined ? '' : String(v));
  return {
    user_email: value(user && user.user_email),
    user_role: (user && user.user_role) || 'internal_user',
    models: user && user.models ? user.models.join(', ') : '',
    max_budget: value(user && user.max_budget),
    budget_duration: value(user && user.budget_duration),
    rpm_limit: value(user && user.rpm_limit),
    tpm_limit: value(user && user.tpm_limit),
    max_parallel_requests: value(user && user.max_parallel_requests),
  };
}

/** The create or edit form; `user` is null to create one. */
function editUser(page, user, opener) {
  const was = shown(user);
  const free = { autocomplete: 'off', spellcheck: 'false' };
  const c = {
    user_id: user ? null : textInput('', free),
    user_email: textInput(was.user_email, { type: 'email', autocomplete: 'off', spellcheck: 'false' }),
    user_role: roleSelect(was.user_role),
    models: textInput(was.models, free),
    max_budget: numberInput(was.max_budget, true),
    budget_duration: textInput(was.budget_duration, free),
    tpm_limit: numberInput(was.tpm_limit),
    rpm_limit: numberInput(was.rpm_limit),
    max_parallel_requests: numberInput(was.max_parallel_requests),
  };
  const withKey = user ? null : h('input', { type: 'checkbox', checked: true });
  const keyAlias = user ? null : textInput('', { autocomplete: 'off' });
  if (withKey) withKey.addEventListener('change', () => { keyAlias.disabled = !withKey.checked; });
  const controls = {};
  for (const [name, control] of Object.entries(c)) if (control) controls[name] = control;
  if (keyAlias) controls.key_alias = keyAlias;
  const content = h('div', {},
    h('div', { class: 'grid' },
      c.user_id ? field('User id', c.user_id, 'Optional: generated when empty.') : null,
      field('Email', c.user_email),
      field('Role', c.user_role, 'Stored and shown; the admin routes still need the master key.'),
      field('Models', c.models, 'Comma separated model groups; empty for all.'),
      field('Max budget', c.max_budget,
        `Dollars per budget period, for all of the user's keys${user ? ` (spent ${dollars(user.spend)})` : ''}; empty for none.`),
      field('Budget duration', c.budget_duration, user ? 'e.g. 30d; changing it starts a new period.' : 'e.g. 30d; empty: never resets.'),
      field('TPM limit', c.tpm_limit, 'Tokens per minute, shared by its keys.'),
      field('RPM limit', c.rpm_limit, 'Requests per minute, shared by its keys.'),
      field('Max parallel requests', c.max_parallel_requests)),
    withKey ? h('div', {},
      checkField('Create a key for this user', withKey),
      h('div', { class: 'grid' }, field('Key alias', keyAlias, 'A name for the new key, unique; optional.'))) : null);
  openRecordForm('user', user ? user.user_id : null, {
    content, controls, opener,
    submit: () => (user ? saveUser(page, user, c, was) : createUser(page, c, withKey.checked ? keyAlias : null)),
  });
}

/** What the form holds, in the API's field names and types. */
function values(c) {
  return {
    user_email: text(c.user_email),
    user_role: c.user_role.value,
    models: list(c.models),
    max_budget: number(c.max_budget),
    budget_duration: text(c.budget_duration),
    tpm_limit: number(c.tpm_limit),
    rpm_limit: number(c.rpm_limit),
    max_parallel_requests: number(c.max_parallel_requests),
  };
}

/** Posts /user/new; `keyAlias` is the alias field when a key is wanted, else null (no key is made). */
async function createUser(page, c, keyAlias) {
  const body = withoutNulls({ ...values(c), user_id: text(c.user_id) });
  if (!body.models.length) delete body.models;
  if (keyAlias) {
    const alias = text(keyAlias);
    if (alias) body.key_alias = alias;
  } else {
    body.auto_create_key = false;
  }
  const created = await api.post('/user/new', body);
  let focus = null;
  if (created.key) {
    focus = showSecret(page, created, `New key ${created.key_alias || created.key_name} of user ${created.user_id}`);
  } else {
    replace(page.secret);
  }
  replace(page.status, notice(`Created user ${created.user_id}${focus ? ' and a key for it' : ''}.`));
  await refreshAfterChange(page);
  return focus;
}

/** Posts /user/update with only the fields that differ from what the form showed (an emptied one as null). */
async function saveUser(page, user, c, was) {
  const now = values(c);
  const body = { user_id: user.user_id };
  for (const [name, control] of Object.entries(c)) {
    if (!control || name === 'user_id') continue;
    const changed = name === 'models' ? now.models.join(', ') !== was.models : control.value.trim() !== was[name];
    if (changed) body[name] = now[name];
  }
  if (Object.keys(body).length === 1) {
    replace(page.status, notice('Nothing changed.'));
    return null;
  }
  await api.post('/user/update', body);
  replace(page.status, notice(`Saved user ${user.user_id}.`));
  await refreshAfterChange(page);
  return null;
}

// The Keys page: the virtual keys (from /key/list with their info objects), creating one
// (its sk-… secret shown once, in a region that forgets it when closed or when the page
// changes), editing, blocking and deleting. Keys are named by their token, never by the key.

import { api } from '../api.js';
import { h, field, alertBox, notice, table, replace, when, heading } from '../dom.js';
import { openRecordForm, confirmAction, runAction, pager, textInput, numberInput, text, number, list, withoutNulls, spendCell, limitsText,
  refreshAfterChange }
  from './forms.js';
import { showSecret } from './secret.js';

const PAGE_SIZE = 50;

export async function render(main, ctx) {
  ctx.setTitle('Keys');
  const status = h('div', { class: 'status-slot' });
  const secret = h('div', { class: 'secret-slot' });
  const listed = h('div', {});
  const create = h('button', { type: 'button', class: 'primary' }, 'Create key');
  const page = { status, secret, listed, create, number: 1, teams: [] };
  create.addEventListener('click', () => editKey(page, null, create));
  page.refresh = () => refresh(page);
  replace(main, heading('Keys'), h('div', { class: 'toolbar' }, create), secret, status, listed);
  await page.refresh();
}

async function refresh(page) {
  const [keys, teams] = await Promise.all([
    api.get('/key/list', { return_full_object: 'true', page: page.number, size: PAGE_SIZE }),
    // Without the teams the keys are still listed, by team id, and the form offers no team to pick.
    api.get('/team/list').then(body => ({ body }), error => ({ error })),
  ]);
  page.teams = Array.isArray(teams.body) ? teams.body : [];
  const pages = Math.max(1, keys.total_pages || 1);
  if (page.number > pages) {
    page.number = pages;
    return refresh(page);
  }
  replace(page.listed,
    teams.error ? alertBox(`The teams could not be read: ${teams.error.message}`) : null,
    table('Virtual keys', columns(page), keys.keys || [], 'No key yet. Create one to give a caller its own budget and limits.'),
    pager(page, keys.total_count || 0, pages, 'key'));
}

function teamName(page, teamId) {
  if (!teamId) return '—';
  const team = page.teams.find(t => t.team_id === teamId);
  return team && team.team_alias ? team.team_alias : teamId;
}

function keyLabel(key) {
  return key.key_alias || key.key_name;
}

function columns(page) {
  return [
    { label: 'Alias', cell: k => k.key_alias || h('span', { class: 'muted' }, 'none') },
    { label: 'Key', cell: k => h('code', { class: 'nowrap' }, k.key_name) },
    { label: 'Team', cell: k => teamName(page, k.team_id) },
    { label: 'Models', cell: k => (k.models && k.models.length ? k.models.join(', ') : 'All') },
    { label: 'Spend', cell: k => h('div', {}, spendCell(k.spend, k.max_budget),
      k.budget_duration ? h('div', { class: 'small muted' }, `per ${k.budget_duration}, resets ${when(k.budget_reset_at)}`) : null) },
    { label: 'Limits', cell: k => limitsText(k) },
    { label: 'Expires', cell: k => expiry(k.expires) },
    { label: 'Status', cell: k => (k.blocked ? h('span', { class: 'badge bad' }, 'Blocked') : h('span', { class: 'badge ok' }, 'Active')) },
    { label: 'Actions', cell: k => actions(page, k) },
  ];
}

function expiry(expires) {
  if (!expires) return 'Never';
  const past = new Date(expires) <= new Date();
  return h('span', {}, when(expires), past ? [' ', h('span', { class: 'badge bad' }, 'expired')] : null);
}

function actions(page, key) {
  const label = keyLabel(key);
  const edit = h('button', { type: 'button', 'aria-label': `Edit ${label}` }, 'Edit');
  const block = h('button', { type: 'button', 'aria-label': `${key.blocked ? 'Unblock' : 'Block'} ${label}` },
    key.blocked ? 'Unblock' : 'Block');
  const remove = h('button', { type: 'button', class: 'danger', 'aria-label': `Delete ${label}` }, 'Delete');
  edit.addEventListener('click', () => editKey(page, key, edit));
  block.addEventListener('click', async () => {
    const route = key.blocked ? '/key/unblock' : '/key/block';
    const done = await runAction([edit, block, remove], page.status, () => api.post(route, { key: key.token }),
      `${key.blocked ? 'Unblocked' : 'Blocked'} key ${label}.`);
    if (done) await refreshAfterChange(page, `Unblock ${label}`, `Block ${label}`);
  });
  remove.addEventListener('click', async () => {
    const confirmed = await confirmAction({
      title: 'Delete key?',
      message: `Key ${label} (${key.key_name}) will be refused from now on. This cannot be undone.`,
      confirmLabel: 'Delete',
      opener: remove,
    });
    if (!confirmed) return;
    const done = await runAction([edit, block, remove], page.status, () => api.post('/key/delete', { keys: [key.token] }),
      `Deleted key ${label}.`);
    if (done) {
      await refreshAfterChange(page);
      page.create.focus();
    }
  });
  return h('div', { class: 'actions' }, edit, block, remove);
}

function teamSelect(page, current) {
  const select = h('select', {}, h('option', { value: '' }, 'No team'),
    page.teams.map(t => h('option', { value: t.team_id }, t.team_alias ? `${t.team_alias} (${t.team_id})` : t.team_id)));
  if (current && !page.teams.some(t => t.team_id === current)) select.append(h('option', { value: current }, current));
  select.value = current || '';
  return select;
}

function tagsOf(key) {
  const tags = key && key.metadata && key.metadata.tags;
  return Array.isArray(tags) ? tags : [];
}

/** The create or edit form; `key` is null to create one. */
function editKey(page, key, opener) {
  const c = {
    key_alias: textInput(key && key.key_alias, { autocomplete: 'off' }),
    models: textInput(key && key.models ? key.models.join(', ') : '', { autocomplete: 'off', spellcheck: 'false' }),
    team_id: teamSelect(page, key && key.team_id),
    max_budget: numberInput(key && key.max_budget, true),
    budget_duration: textInput(key && key.budget_duration, { autocomplete: 'off', spellcheck: 'false' }),
    rpm_limit: numberInput(key && key.rpm_limit),
    tpm_limit: numberInput(key && key.tpm_limit),
    max_parallel_requests: numberInput(key && key.max_parallel_requests),
    duration: textInput('', { autocomplete: 'off', spellcheck: 'false' }),
    tags: textInput(tagsOf(key).join(', '), { autocomplete: 'off' }),
  };
  const controls = { ...c, metadata: c.tags };
  const expiresHint = key
    ? `${key.expires ? `Now ${when(key.expires)}` : 'Now never'}. A duration (30d) sets it from now, "never" removes it; leave empty to keep it.`
    : 'A duration like 30d; empty for never.';
  const content = h('div', { class: 'grid' },
    field('Alias', c.key_alias, 'A name for the key, unique.'),
    field('Models', c.models, 'Comma separated model groups; empty for all.'),
    field('Team', c.team_id),
    field('Max budget', c.max_budget, 'Dollars per budget period; empty for none.'),
    field('Budget duration', c.budget_duration, key ? 'e.g. 30d; changing it starts a new period.' : 'e.g. 30d; empty: the budget never resets.'),
    field('RPM limit', c.rpm_limit, 'Requests per minute.'),
    field('TPM limit', c.tpm_limit, 'Tokens per minute.'),
    field('Max parallel requests', c.max_parallel_requests),
    field('Expires', c.duration, expiresHint),
    field('Tags', c.tags, 'Comma separated; label the key\'s spend.'));
  openRecordForm('key', key ? keyLabel(key) : null, {
    content, controls, opener, submit: () => (key ? saveKey(page, key, c) : createKey(page, c)),
  });
}

function settings(c) {
  return {
    key_alias: text(c.key_alias),
    models: list(c.models),
    team_id: c.team_id.value || null,
    max_budget: number(c.max_budget),
    rpm_limit: number(c.rpm_limit),
    tpm_limit: number(c.tpm_limit),
    max_parallel_requests: number(c.max_parallel_requests),
  };
}

async function createKey(page, c) {
  const body = withoutNulls({ ...settings(c), budget_duration: text(c.budget_duration), duration: text(c.duration) });
  const tags = list(c.tags);
  if (tags.length) body.metadata = { tags };
  const created = await api.post('/key/generate', body);
  const focus = showSecret(page, created);
  replace(page.status, notice(`Created key ${keyLabel(created)}.`));
  await refreshAfterChange(page);
  return focus;
}

async function saveKey(page, key, c) {
  const body = { key: key.token, ...settings(c) };
  // Giving budget_duration restarts the budget period, so it is sent only when it changed.
  const duration = text(c.budget_duration);
  if (duration !== (key.budget_duration || null)) body.budget_duration = duration;
  const expires = text(c.duration);
  if (expires !== null) body.duration = expires.toLowerCase() === 'never' ? null : expires;
  const tags = list(c.tags);
  if (tags.join(',') !== tagsOf(key).join(',')) {
    // metadata is replaced whole: the key's other metadata is kept beside the tags.
    const metadata = { ...(key.metadata || {}) };
    if (tags.length) metadata.tags = tags;
    else delete metadata.tags;
    body.metadata = metadata;
  }
  await api.post('/key/update', body);
  replace(page.status, notice(`Saved key ${keyLabel(key)}.`));
  await refreshAfterChange(page);
  return null;
}

// The Models page: every model group with its deployments (/model/info joined with
// /model/state by id), and adding, changing and removing the deployments the model API added.
// A deployment's API key is never shown: only whether one is set. Its api_base is shown as
// /model/state cleans it (no user info, query or fragment, where a credential may sit), never
// as /model/info answers it. An edit sends only the fields changed: /model/update merges them
// into the stored entry, so a field left alone (an os.environ/NAME reference) stays as written.

import { api } from '../api.js';
import { h, uid, field, alertBox, notice, table, replace, when, num, heading } from '../dom.js';
import { openForm, confirmAction, runAction, textInput, numberInput, text, number, withoutNulls, refreshAfterChange } from './forms.js';

export async function render(main, ctx) {
  ctx.setTitle('Models');
  const status = h('div', { class: 'status-slot' });
  const list = h('div', { class: 'model-groups' });
  const add = h('button', { type: 'button', class: 'primary' }, 'Add deployment');
  const page = { status, list, add };
  add.addEventListener('click', () => editDeployment(page, null, null, add));
  page.refresh = () => refresh(page);
  replace(main, heading('Models'),
    h('div', { class: 'toolbar' }, add),
    status, list);
  await page.refresh();
}

/** Reads the deployments and their live state, and shows them group by group. */
async function refresh(page) {
  const [info, state] = await Promise.all([
    api.get('/model/info'),
    api.get('/model/state').then(body => ({ body }), error => ({ error })),
  ]);
  const states = new Map(((state.body && state.body.deployments) || []).map(d => [d.model_id, d]));
  const groups = new Map();
  for (const deployment of (info && info.data) || []) {
    const name = deployment.model_name;
    if (!groups.has(name)) groups.set(name, []);
    groups.get(name).push({ deployment, state: states.get(deployment.model_info.id) || null });
  }
  replace(page.list,
    state.error ? alertBox(`The deployments' live state could not be read: ${state.error.message}`) : null,
    groups.size ? [...groups].map(([name, rows]) => groupSection(page, name, rows))
      : h('p', { class: 'muted' }, 'No deployment is served yet. Add one, or list them in the config file.'));
}

function groupSection(page, name, rows) {
  const titleId = uid('group');
  return h('section', { class: 'model-group', 'aria-labelledby': titleId },
    h('h2', { id: titleId }, name, ' ', h('span', { class: 'muted count' }, `(${rows.length} deployment${rows.length === 1 ? '' : 's'})`)),
    table(`Deployments of ${name}`, columns(page), rows));
}

function columns(page) {
  return [
    { label: 'Deployment', cell: r => deploymentCell(r.deployment) },
    { label: 'Provider', cell: r => r.deployment.model_info.provider || '—' },
    { label: 'Model', cell: r => h('code', {}, r.deployment.litellm_params.model) },
    { label: 'API base', cell: r => apiBaseCell(r.state) },
    { label: 'Weight', class: 'num', cell: r => num(r.deployment.litellm_params.weight) },
    { label: 'RPM / TPM', class: 'num', cell: r => `${num(r.deployment.litellm_params.rpm)} / ${num(r.deployment.litellm_params.tpm)}` },
    { label: 'Order', class: 'num', cell: r => num(r.deployment.litellm_params.order) },
    { label: 'State', cell: r => stateCell(r.state) },
    { label: 'Recent failures', cell: r => failuresCell(r.state) },
    { label: 'Actions', cell: r => actions(page, r) },
  ];
}

function deploymentCell(deployment) {
  const info = deployment.model_info;
  return h('div', { class: 'deployment-id' },
    h('code', {}, info.id),
    h('div', { class: 'tags' },
      info.db_model ? null : h('span', { class: 'badge' }, 'config file'),
      info.has_api_key ? h('span', { class: 'badge ok' }, 'key set') : h('span', { class: 'badge warn' }, 'no key')));
}

/** The api_base as /model/state shows it; unknown when the state could not be read. */
function apiBaseCell(state) {
  if (!state) return h('span', { class: 'muted' }, 'unknown');
  return state.api_base ? h('code', {}, state.api_base) : '—';
}

/** The router's view of a deployment: routable, counting failures, or benched until a time. */
function stateCell(state) {
  if (!state) return h('span', { class: 'muted' }, 'unknown');
  if (state.state === 'benched') {
    return h('div', {},
      h('span', { class: 'badge bad' }, 'benched'),
      h('div', { class: 'small' }, `until ${when(state.benched_until)}`),
      state.bench_reason ? h('div', { class: 'small muted' }, state.bench_reason) : null);
  }
  if (state.state === 'counting') return h('span', { class: 'badge warn' }, 'counting failures');
  return h('span', { class: 'badge ok' }, state.state || 'routable');
}

function failuresCell(state) {
  const failures = (state && state.recent_failures) || [];
  if (!failures.length) return h('span', { class: 'muted' }, state ? 'none' : '—');
  const last = failures.reduce((a, b) => (new Date(b.at) > new Date(a.at) ? b : a));
  return h('div', {},
    h('span', {}, `${failures.length} recent`),
    h('div', { class: 'small' }, `last: ${last.failure_class}${last.status ? ` (${last.status})` : ''}, ${when(last.at)}`),
    last.message ? h('div', { class: 'small muted clip' }, last.message) : null);
}

function actions(page, { deployment, state }) {
  const id = deployment.model_info.id;
  const fromConfig = !deployment.model_info.db_model;
  const noteId = fromConfig ? uid('config-note') : null;
  const edit = h('button', { type: 'button', 'aria-label': `Edit ${id}`, disabled: fromConfig, 'aria-describedby': noteId }, 'Edit');
  const remove = h('button', { type: 'button', class: 'danger', 'aria-label': `Delete ${id}`, disabled: fromConfig,
    'aria-describedby': noteId }, 'Delete');
  edit.addEventListener('click', () => editDeployment(page, deployment, state, edit));
  remove.addEventListener('click', () => deleteDeployment(page, deployment, remove));
  return h('div', { class: 'actions' }, edit, remove,
    fromConfig ? h('p', { id: noteId, class: 'small muted' }, 'Set in the config file: change it there.') : null);
}

/**
 * The add or edit form; `deployment` is null to add one, `state` its /model/state row (null
 * when unknown), whose cleaned api_base the form shows instead of the one /model/info answers.
 */
function editDeployment(page, deployment, state, opener) {
  const params = deployment ? deployment.litellm_params : {};
  const info = deployment ? deployment.model_info : {};
  const shownApiBase = state ? state.api_base || '' : '';
  const c = {
    model_name: textInput(deployment && deployment.model_name, { autocomplete: 'off', required: true }),
    model: textInput(params.model, { autocomplete: 'off', required: true, spellcheck: 'false' }),
    api_base: textInput(shownApiBase, { type: 'url', autocomplete: 'off', spellcheck: 'false' }),
    api_key: h('input', { type: 'password', autocomplete: 'new-password', spellcheck: 'false' }),
    weight: numberInput(params.weight, true),
    rpm: numberInput(params.rpm),
    tpm: numberInput(params.tpm),
    order: numberInput(params.order),
    id: deployment ? null : textInput('', { autocomplete: 'off', spellcheck: 'false' }),
  };
  const controls = {
    model_name: c.model_name,
    'litellm_params.model': c.model,
    'litellm_params.api_base': c.api_base,
    'litellm_params.api_key': c.api_key,
    'litellm_params.weight': c.weight,
    'litellm_params.rpm': c.rpm,
    'litellm_params.tpm': c.tpm,
    'litellm_params.order': c.order,
  };
  if (c.id) controls['model_info.id'] = c.id;
  const content = h('div', { class: 'grid' },
    field('Model group', c.model_name, 'The name callers send as "model".'),
    field('Model', c.model, 'Provider and model, e.g. openai/gpt-4o.'),
    field('API base', c.api_base, apiBaseHint(deployment, state)),
    field('API key', c.api_key, deployment
      ? (info.has_api_key ? 'A key is set; leave empty to keep it.' : 'No key is set.')
      : 'Sent to the gateway, never shown again. os.environ/NAME reads a variable.'),
    field('Weight', c.weight, 'Share of the group\'s calls (simple-shuffle).'),
    field('RPM', c.rpm, 'Requests per minute; empty for no limit.'),
    field('TPM', c.tpm, 'Tokens per minute; empty for no limit.'),
    field('Order', c.order, '1 is tried first; empty for none.'),
    c.id ? field('Deployment id', c.id, 'Optional: generated when empty.') : null);
  openForm({
    title: deployment ? `Edit deployment ${info.id}` : 'Add deployment',
    content,
    submitLabel: 'Save',
    controls,
    opener,
    submit: async () => {
      const litellm = {
        model: text(c.model),
        api_base: text(c.api_base),
        weight: number(c.weight),
        rpm: number(c.rpm),
        tpm: number(c.tpm),
        order: number(c.order),
      };
      const key = text(c.api_key);
      let answer;
      if (deployment) {
        const changed = changedParams(litellm, { ...params, api_base: shownApiBase });
        if (key !== null) changed.api_key = key;
        const body = { model_info: { id: info.id } };
        if (text(c.model_name) !== deployment.model_name) body.model_name = text(c.model_name);
        if (Object.keys(changed).length) body.litellm_params = changed;
        if (Object.keys(body).length === 1) {
          replace(page.status, notice(`Nothing changed in deployment ${info.id}.`));
          return null;
        }
        answer = await api.post('/model/update', body);
      } else {
        if (key !== null) litellm.api_key = key;
        const body = { model_name: text(c.model_name), litellm_params: withoutNulls(litellm) };
        if (text(c.id)) body.model_info = { id: text(c.id) };
        answer = await api.post('/model/new', body);
      }
      c.api_key.value = '';
      const ignored = answer && answer.ignored_keys && answer.ignored_keys.length
        ? ` Read but not acted on: ${answer.ignored_keys.join(', ')}.` : '';
      replace(page.status, notice(`${deployment ? 'Saved' : 'Added'} deployment ${answer.model_id} of ${answer.model_name}.${ignored}`));
      await refreshAfterChange(page);
      return null;
    },
  });
}

function apiBaseHint(deployment, state) {
  if (!deployment) return 'Optional: the provider\'s URL.';
  if (!state) return 'The current one could not be read; leave empty to keep it.';
  return state.api_base
    ? 'Shown without user info, query or fragment; left as it is, the stored one is kept. Empty it to remove it.'
    : 'Optional: the provider\'s URL.';
}

/**
 * The fields of `form` that differ from `before`: /model/update merges what it is given into
 * the stored entry (null removes a field), so a field left alone is not sent and keeps what
 * the entry holds, an os.environ/NAME reference or an api_base's query included.
 */
function changedParams(form, before) {
  const changed = {};
  for (const [name, value] of Object.entries(form)) {
    const was = before[name] === undefined || before[name] === '' ? null : before[name];
    if (value !== was) changed[name] = value;
  }
  return changed;
}

async function deleteDeployment(page, deployment, button) {
  const id = deployment.model_info.id;
  const confirmed = await confirmAction({
    title: 'Delete deployment?',
    message: `Deployment ${id} of ${deployment.model_name} will no longer be served, by any replica.`,
    confirmLabel: 'Delete',
    opener: button,
  });
  if (!confirmed) return;
  const done = await runAction(button, page.status, () => api.post('/model/delete', { id }), `Deleted deployment ${id}.`);
  if (done) {
    await refreshAfterChange(page);
    page.add.focus();
  }
}


// The Logs page: this replica's recent calls from /calls/recent (a virtual key sees its own
// only: the API filters), filtered by model group, key alias and status, each call's attempts
// and headers in a dialog; and for the master key, the spend log (/spend/logs) a page at a time.

import { api } from '../api.js';
import { h, field, alertBox, table, replace, dollars, num, heading, when } from '../dom.js';
import { whileBusy } from '../busy.js';
import { renderSpendLog } from '../spend-log.js';

const STATUSES = [['', 'Any'], ['success', 'Success'], ['failure', 'Failure']];

export async function render(main, ctx) {
  const group = h('input', { type: 'text', name: 'model_group', autocomplete: 'off', spellcheck: 'false' });
  const alias = h('input', { type: 'text', name: 'key_alias', autocomplete: 'off', spellcheck: 'false' });
  const status = h('select', { name: 'status' }, STATUSES.map(([value, label]) => h('option', { value }, label)));
  const filter = h('button', { type: 'submit', class: 'primary' }, 'Filter');
  const out = h('div', { 'aria-live': 'polite' });
  const dialog = callDialog();
  const form = h('form', { class: 'toolbar', 'aria-label': 'Filter recent calls' },
    field('Model group', group), field('Key alias', alias), field('Status', status), filter);

  async function load() {
    await whileBusy(filter, async () => {
      try {
        const answer = await api.get('/calls/recent', {
          model_group: group.value.trim(), key_alias: alias.value.trim(), status: status.value, limit: 200,
        });
        const calls = (answer && answer.calls) || [];
        replace(out,
          h('p', { class: 'muted' }, `${calls.length} call${calls.length === 1 ? '' : 's'}, newest first (this replica's latest).`),
          callTable(calls, dialog));
      } catch (e) {
        replace(out, alertBox(e));
      }
    }, { region: out, busyText: 'Filtering…' });
  }

  form.addEventListener('submit', event => {
    event.preventDefault();
    load();
  });
  replace(main, heading('Logs'),
    h('section', { 'aria-labelledby': 'recent-calls' }, h('h2', { id: 'recent-calls' }, 'Recent calls'), form, out),
    dialog.element);
  await load();
  if (ctx.session.role === 'admin') {
    const spend = h('section', { 'aria-labelledby': 'spend-log' }, h('h2', { id: 'spend-log' }, 'Spend log'));
    main.append(spend);
    await renderSpendLog(spend);
  }
}

function statusBadge(status) {
  const ok = status >= 200 && status < 300;
  return h('span', { class: `badge ${ok ? 'ok' : 'bad'}` }, ok ? `${status}` : `${status} failed`);
}

function callTable(calls, dialog) {
  return table('Recent calls', [
    { label: 'Time', cell: c => when(c.started_at) },
    { label: 'Key alias', cell: c => c.key_alias || c.key_name || h('span', { class: 'muted' }, c.key_name === null ? 'master key' : '—') },
    { label: 'Group', cell: c => c.model_group || '—' },
    { label: 'Deployment', cell: c => c.deployment_id || '—' },
    { label: 'Status', cell: c => statusBadge(c.status) },
    { label: 'Latency', class: 'num', cell: c => (c.latency_ms === null || c.latency_ms === undefined ? '—' : `${c.latency_ms} ms`) },
    { label: 'Cost', class: 'num', cell: c => dollars(c.cost) },
    { label: 'Retries', class: 'num', cell: c => num(c.retries) },
    { label: 'Fallbacks', class: 'num', cell: c => num(c.fallbacks) },
    {
      label: 'Details', cell: c => h('button', {
        type: 'button', class: 'link', 'aria-label': `Details of call ${c.call_id}`,
        onclick: event => dialog.open(c, event.currentTarget),
      }, 'Details'),
    },
  ], calls, 'No calls yet.');
}

/** One dialog for every call's details: its attempts and the answer's headers. */
function callDialog() {
  const body = h('div', {});
  const title = h('h2', { id: 'call-details-title', tabindex: '-1' }, 'Call');
  const close = h('button', { type: 'button', class: 'primary' }, 'Close');
  const element = h('dialog', { 'aria-labelledby': 'call-details-title' }, title, body, h('div', { class: 'actions' }, close));
  let returnTo = null;
  close.addEventListener('click', () => element.close());
  element.addEventListener('close', () => {
    if (returnTo && returnTo.isConnected) returnTo.focus();
  });
  return {
    element,
    open(call, from) {
      returnTo = from;
      replace(title, `Call ${call.call_id}`);
      replace(body, details(call));
      element.showModal();
      // Start at the top: the title, from which Tab reaches the tables and Close.
      element.scrollTop = 0;
      title.focus();
    },
  };
}

function details(call) {
  const facts = [
    ['Started', when(call.started_at)],
    ['Key', call.key_alias ? `${call.key_alias} (${call.key_name || ''})` : call.key_name || 'master key'],
    ['Team', call.team_id || '—'],
    ['Model group', call.model_group || '—'],
    ['Deployment', call.deployment_id || '—'],
    ['Status', String(call.status)],
    ['Latency', call.latency_ms === null || call.latency_ms === undefined ? '—' : `${call.latency_ms} ms`],
    ['Cost', dollars(call.cost)],
    ['Stream', call.stream ? 'yes' : 'no'],
    ['Cache hit', call.cache_hit ? 'yes' : 'no'],
  ];
  const headers = Object.entries(call.headers || {});
  return [
    h('dl', { class: 'facts' }, facts.map(([k, v]) => [h('dt', {}, k), h('dd', {}, v)])),
    h('h3', {}, 'Attempts'),
    table(`Attempts of call ${call.call_id}`, [
      { label: '#', class: 'num', cell: (a) => String(call.attempts.indexOf(a) + 1) },
      { label: 'Group', cell: a => a.model_group || '—' },
      { label: 'Deployment', cell: a => a.deployment_id || '—' },
      { label: 'Failure class', cell: a => a.failure_class || h('span', { class: 'badge ok' }, 'served') },
      { label: 'Status', class: 'num', cell: a => num(a.status) },
      { label: 'Message', cell: a => a.message || '—' },
    ], call.attempts || [], 'No attempt reached a deployment.'),
    h('h3', {}, 'Headers'),
    table(`Headers of call ${call.call_id}`, [
      { label: 'Header', cell: ([name]) => h('code', {}, name) },
      { label: 'Value', cell: ([, value]) => h('span', { class: 'mono' }, String(value)) },
    ], headers, 'No headers recorded.'),
  ];
}

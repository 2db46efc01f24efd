// The spend log (GET /spend/logs, master key only), one page at a time, newest first: each
// call's time, group, deployment, status, tokens and cost as the store kept them.

import { api } from './api.js';
import { h, alertBox, table, replace, dollars, num, when } from './dom.js';
import { whileBusy } from './busy.js';

const PAGE_SIZE = 50;

/** Fills `section` with the spend log's first page and Previous/Next buttons. */
export async function renderSpendLog(section) {
  const out = h('div', { 'aria-live': 'polite' });
  const previous = h('button', { type: 'button' }, 'Previous page');
  const next = h('button', { type: 'button' }, 'Next page');
  const where = h('span', { class: 'muted' });
  let page = 1;

  async function load(wanted) {
    await whileBusy([previous, next], async () => {
      try {
        const rows = await api.get('/spend/logs', { page: wanted, page_size: PAGE_SIZE });
        const list = Array.isArray(rows) ? rows : [];
        page = wanted;
        replace(where, `Page ${page}`);
        replace(out, spendTable(list));
        previous.dataset.disabled = page <= 1 ? 'true' : '';
        next.dataset.disabled = list.length < PAGE_SIZE ? 'true' : '';
      } catch (e) {
        replace(out, alertBox(e));
      }
    }, { region: out });
    // whileBusy enables both again; the ends of the log keep theirs disabled.
    previous.disabled = previous.dataset.disabled === 'true';
    next.disabled = next.dataset.disabled === 'true';
  }

  previous.addEventListener('click', () => load(page - 1));
  next.addEventListener('click', () => load(page + 1));
  section.append(h('p', { class: 'muted' }, 'Every call the store logged, newest first, kept for the retention period.'),
    out, h('div', { class: 'actions pager' }, previous, where, next));
  await load(1);
}

function spendTable(rows) {
  return table('Spend log', [
    { label: 'Time', cell: r => when(r.startTime) },
    { label: 'Request', cell: r => h('span', { class: 'mono' }, r.request_id) },
    { label: 'Group', cell: r => r.model_group || '—' },
    { label: 'Deployment', cell: r => r.model_id || '—' },
    { label: 'Status', cell: r => statusOf(r) },
    { label: 'Team', cell: r => r.team_id || '—' },
    { label: 'Customer', cell: r => r.end_user || '—' },
    { label: 'Tokens', class: 'num', cell: r => num(r.total_tokens) },
    { label: 'Cost', class: 'num', cell: r => dollars(r.spend) },
  ], rows, 'No calls logged.');
}

function statusOf(row) {
  const failed = row.status && row.status !== 'success';
  const code = row.metadata && row.metadata.error_information && row.metadata.error_information.error_code;
  return h('span', { class: `badge ${failed ? 'bad' : 'ok'}` }, failed ? `failure${code ? ' ' + code : ''}` : 'success');
}

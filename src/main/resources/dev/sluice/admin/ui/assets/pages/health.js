// The Health page: every deployment's state as this replica's router sees it (/model/state:
// healthy unless benched, why, until when, its recent failures), and on demand a round of real
// probes (GET /health with the master key) showing each deployment's result.

import { api } from '../api.js';
import { h, alertBox, table, replace, heading, when, num } from '../dom.js';
import { whileBusy } from '../busy.js';

export async function render(main) {
  const stateOut = h('div', { 'aria-live': 'polite' });
  const probeOut = h('div', { 'aria-live': 'polite' });
  const refresh = h('button', { type: 'button' }, 'Refresh');
  const probe = h('button', { type: 'button', class: 'primary' }, 'Probe now');

  async function loadState() {
    await whileBusy(refresh, async () => {
      try {
        const answer = await api.get('/model/state');
        replace(stateOut, stateTable((answer && answer.deployments) || []));
      } catch (e) {
        replace(stateOut, alertBox(e));
      }
    }, { region: stateOut, busyText: 'Refreshing…' });
  }

  async function runProbes() {
    replace(probeOut, h('p', { class: 'muted', role: 'status' }, 'Probing every deployment with a real call…'));
    await whileBusy(probe, async () => {
      try {
        replace(probeOut, probeResults(await api.get('/health')));
      } catch (e) {
        replace(probeOut, alertBox(e));
      }
    }, { region: probeOut, busyText: 'Probing…' });
    await loadState();
  }

  refresh.addEventListener('click', loadState);
  probe.addEventListener('click', runProbes);
  replace(main, heading('Health'),
    h('section', { 'aria-labelledby': 'deployment-state' },
      h('h2', { id: 'deployment-state' }, 'Deployments'),
      h('p', { class: 'muted' }, 'As this replica routes now: a benched deployment gets no traffic until its bench ends.'),
      h('div', { class: 'actions' }, refresh), stateOut),
    h('section', { 'aria-labelledby': 'probes' },
      h('h2', { id: 'probes' }, 'Probes'),
      h('p', { class: 'muted' }, 'Probe now sends each deployment the smallest real call on its own key (GET /health).'),
      h('div', { class: 'actions' }, probe), probeOut));
  await loadState();
}

function stateBadge(d) {
  if (d.state === 'benched') return h('span', { class: 'badge bad' }, 'Unhealthy (benched)');
  if (d.state === 'counting') return h('span', { class: 'badge warn' }, 'Healthy (failures counted)');
  return h('span', { class: 'badge ok' }, 'Healthy');
}

function stateTable(deployments) {
  return table('Deployments and their state', [
    { label: 'Deployment', cell: d => h('code', {}, d.model_id) },
    { label: 'Group', cell: d => d.model_name },
    { label: 'Model', cell: d => h('span', { class: 'mono' }, d.model || '—') },
    { label: 'API base', cell: d => h('span', { class: 'mono' }, d.api_base || 'provider default') },
    { label: 'State', cell: d => stateBadge(d) },
    { label: 'Reason', cell: d => d.bench_reason || '—' },
    { label: 'Bench ends', cell: d => (d.benched_until ? when(d.benched_until) : '—') },
    { label: 'Recent failures', cell: d => failures(d) },
  ], deployments, 'No deployments.');
}

function failures(d) {
  const list = d.recent_failures || [];
  if (!list.length) return h('span', { class: 'muted' }, 'none');
  return h('details', {},
    h('summary', {}, `${list.length} recent`),
    h('ul', { class: 'failures' }, list.map(f => h('li', {},
      `${when(f.at)}: ${f.failure_class || 'unknown'}`, f.status ? ` (${f.status})` : '', f.message ? ` — ${f.message}` : ''))));
}

function probeResults(report) {
  const healthy = (report.healthy_endpoints || []).map(e => ({ ...e, healthy: true }));
  const unhealthy = (report.unhealthy_endpoints || []).map(e => ({ ...e, healthy: false }));
  const all = [...unhealthy, ...healthy];
  return [
    h('p', { role: 'status' }, `Checked at ${when(report.checked_at)}: ${num(report.healthy_count ?? healthy.length)} healthy, ` +
      `${num(report.unhealthy_count ?? unhealthy.length)} unhealthy.`, ' ',
    h('time', { datetime: report.checked_at || '' , class: 'muted' }, report.checked_at ? `(${report.checked_at})` : '')),
    table('Probe results', [
      { label: 'Deployment', cell: e => h('code', {}, e.model_id) },
      { label: 'Group', cell: e => e.model_name },
      { label: 'Result', cell: e => h('span', { class: `badge ${e.healthy ? 'ok' : 'bad'}` }, e.healthy ? 'Healthy' : 'Unhealthy') },
      { label: 'Failure class', cell: e => e.failure_class || '—' },
      { label: 'Error', cell: e => e.error || '—' },
      { label: 'Bench ends', cell: e => (e.benched_until ? when(e.benched_until) : '—') },
    ], all, 'No deployments were probed.'),
  ];
}

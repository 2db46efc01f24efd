// The Usage page: for the master key, spend and requests over a date range from
// /global/spend/report, by day, key, team, model group, deployment or tag, drawn as charts
// with a table of totals; for a virtual key, its own spend and budget (/key/info) and its
// spend per day (/global/spend/logs), and nothing else.

import { api } from '../api.js';
import { h, field, alertBox, table, replace, dollars, num, heading, showFieldError, when } from '../dom.js';
import { stackedBars, lines, bars, legend } from '../chart.js';
import { VIEWS, readReport, daysBetween, seriesOf } from '../spend-report.js';
import { whileBusy, utcDay } from '../busy.js';

const SERIES_SHOWN = 8;

export async function render(main, ctx) {
  if (ctx.session.role === 'key') {
    await renderKey(main, ctx);
    return;
  }
  const from = h('input', { type: 'date', name: 'from', value: utcDay(29), required: true });
  const to = h('input', { type: 'date', name: 'to', value: utcDay(0), required: true });
  const groupBy = h('select', { name: 'group_by' }, VIEWS.map(v => h('option', { value: v.value }, v.label)));
  groupBy.value = 'day';
  const show = h('button', { type: 'submit', class: 'primary' }, 'Show');
  const out = h('div', { class: 'usage-out', 'aria-live': 'polite' });
  const form = h('form', { class: 'toolbar', 'aria-label': 'Usage range and view' },
    field('From', from), field('To', to), field('Group by', groupBy), show);

  let latest = 0;
  async function load() {
    showFieldError(from, null);
    showFieldError(to, null);
    if (!from.value || !to.value || from.value > to.value) {
      showFieldError(from.value ? to : from, !from.value || !to.value ? 'Pick a day.' : 'The end is before the start.');
      return;
    }
    // The view may change again while a report loads; only the latest answer is drawn.
    const asked = ++latest;
    const view = groupBy.value;
    await whileBusy(show, async () => {
      try {
        const rows = await api.get('/global/spend/report', { start_date: from.value, end_date: to.value, group_by: view });
        const report = readReport(view, rows);
        const note = view === 'api_key' ? await nameKeys(report) : null;
        if (asked === latest) replace(out, note, drawReport(report, view, from.value, to.value));
      } catch (e) {
        if (asked !== latest) return;
        if (e.param === 'start_date' || e.param === 'end_date') showFieldError(e.param === 'start_date' ? from : to, e.message);
        replace(out, alertBox(e));
      }
    }, { region: out, busyText: 'Loading…' });
  }

  form.addEventListener('submit', event => {
    event.preventDefault();
    load();
  });
  groupBy.addEventListener('change', load);
  replace(main, heading('Usage'), form, out);
  await load();
}

/**
 * Names the report's keys by alias and masked key instead of their hash, from /key/list (at
 * most 1,000 keys); answers a note when the names could not be read.
 */
async function nameKeys(report) {
  const names = new Map();
  try {
    for (let page = 1, pages = 1; page <= pages && page <= 10; page++) {
      const answer = await api.get('/key/list', { page, size: 100, return_full_object: 'true' });
      pages = (answer && answer.total_pages) || 1;
      ((answer && answer.keys) || []).forEach(k => {
        if (k && typeof k === 'object' && k.token) names.set(k.token, k.key_alias ? `${k.key_alias} (${k.key_name})` : k.key_name);
      });
    }
  } catch (e) {
    return h('p', { class: 'muted' }, `Keys are shown by their hash: their names could not be read (${e.message}).`);
  }
  report.groups.forEach(g => {
    if (g.name === '(none)') g.name = 'No key (master key)';
    else if (names.has(g.name)) g.name = names.get(g.name);
  });
  return null;
}

function viewLabel(groupBy) {
  const view = VIEWS.find(v => v.value === groupBy);
  return view ? view.label.toLowerCase() : groupBy;
}

function drawReport(report, groupBy, from, to) {
  const total = report.groups.reduce((sum, g) => sum + (Number(g.spend) || 0), 0);
  const requests = report.groups.some(g => g.requests !== null)
    ? report.groups.reduce((sum, g) => sum + (Number(g.requests) || 0), 0) : null;
  const range = `${from} to ${to}`;
  const summary = h('p', {}, `${dollars(total)} spent from ${range}`, requests === null ? '' : `, ${requests} requests`,
    report.groups.length && groupBy !== 'day' ? `, over ${report.groups.length} ${viewLabel(groupBy)}${report.groups.length === 1 ? '' : 's'}` : '', '.');
  if (!report.groups.length) {
    return [summary, h('p', { class: 'muted' }, `Nothing to show by ${viewLabel(groupBy)} from ${range}.`)];
  }
  const charts = report.overTime ? chartsOverTime(report, groupBy, from, to, total) : chartOfTotals(report, range, total);
  // By day, the totals are the days themselves (newest first); otherwise one row per group.
  const rows = groupBy === 'day'
    ? [...report.groups[0].perDay.entries()].map(([day, cell]) => ({ name: day, ...cell })).sort((a, b) => b.name.localeCompare(a.name))
    : report.groups;
  const columns = [
    { label: VIEWS.find(v => v.value === groupBy).label, cell: g => h('span', { class: groupBy === 'api_key' ? 'mono' : null }, g.name) },
    { label: 'Spend', class: 'num', cell: g => dollars(g.spend) },
    { label: 'Requests', class: 'num', cell: g => num(g.requests) },
    { label: 'Tokens', class: 'num', cell: g => num(g.tokens) },
  ];
  return [summary, charts, h('h2', {}, 'Totals'), table(`Totals by ${viewLabel(groupBy)}, ${range}`, columns, rows)];
}

function chartsOverTime(report, groupBy, from, to, total) {
  const days = daysBetween(from, to);
  const ticks = days.map(d => d.slice(5));
  const spendSeries = seriesOf(report, days, c => c.spend, SERIES_SHOWN);
  const names = spendSeries.map(s => s.name);
  const top = report.groups[0];
  const by = groupBy === 'day' ? '' : ` by ${viewLabel(groupBy)}`;
  const most = groupBy === 'day' ? '' : `; most by ${top.name} (${dollars(top.spend)})`;
  const busiest = busiestDay(report);
  const spendLabel = `Spend per day${by}, ${from} to ${to}: ${dollars(total)} in total${most}` +
    (busiest ? `; highest on ${busiest.day} (${dollars(busiest.spend)}).` : '.');
  const parts = [h('h2', {}, 'Spend per day'), stackedBars(spendLabel, ticks, spendSeries, dollars)];
  if (groupBy !== 'day') parts.push(legend(names));
  if (report.groups.some(g => g.requests !== null)) {
    const requestSeries = seriesOf(report, days, c => c.requests || 0, SERIES_SHOWN);
    const requests = report.groups.reduce((sum, g) => sum + (Number(g.requests) || 0), 0);
    const requestLabel = `Requests per day${by}, ${from} to ${to}: ${requests} in total.`;
    parts.push(h('h2', {}, 'Requests per day'), lines(requestLabel, ticks, requestSeries, v => String(Math.round(v))));
    if (groupBy !== 'day') parts.push(legend(names));
  } else {
    parts.push(h('p', { class: 'muted' }, 'The report by team does not count requests; pick another view to see them.'));
  }
  return parts;
}

function busiestDay(report) {
  const perDay = new Map();
  report.groups.forEach(g => g.perDay.forEach((cell, day) => perDay.set(day, (perDay.get(day) || 0) + (Number(cell.spend) || 0))));
  let best = null;
  perDay.forEach((spend, day) => {
    if (!best || spend > best.spend) best = { day, spend };
  });
  return best;
}

function chartOfTotals(report, range, total) {
  const items = report.groups.slice(0, 12).map(g => ({ name: g.name, value: g.spend }));
  const label = `Spend by key, ${range}: ${dollars(total)} in total over ${report.groups.length} keys; ` +
    `most by ${report.groups[0].name} (${dollars(report.groups[0].spend)}).`;
  return [h('h2', {}, 'Spend by key'),
    h('p', { class: 'muted' }, 'The report counts keys over the whole range, not per day.'),
    bars(label, items, dollars)];
}

/** A virtual key's own usage: its spend and budget, and its spend per day over the last 30 days. */
async function renderKey(main, ctx) {
  replace(main, heading('Usage'));
  const info = await api.get('/key/info');
  const key = info.info || {};
  const name = key.key_alias || key.key_name || ctx.session.key_alias || ctx.session.key_name || 'this key';
  const budget = key.max_budget === null || key.max_budget === undefined ? 'no budget' : dollars(key.max_budget);
  main.append(h('div', { class: 'card' },
    h('h2', {}, `Key ${name}`),
    h('dl', { class: 'facts' },
      h('dt', {}, 'Spend'), h('dd', {}, dollars(key.spend)),
      h('dt', {}, 'Budget'), h('dd', {}, budget, key.budget_duration ? ` per ${key.budget_duration}` : ''),
      key.budget_reset_at ? [h('dt', {}, 'Budget resets'), h('dd', {}, when(key.budget_reset_at))] : null,
      key.expires ? [h('dt', {}, 'Expires'), h('dd', {}, when(key.expires))] : null)));
  const region = h('div', { 'aria-live': 'polite' });
  main.append(region);
  try {
    const rows = await api.get('/global/spend/logs', key.token ? { api_key: key.token } : undefined);
    const list = Array.isArray(rows) ? rows : [];
    const total = list.reduce((sum, r) => sum + (Number(r.spend) || 0), 0);
    const label = `Spend per day of key ${name}, last 30 days: ${dollars(total)} in total.`;
    replace(region,
      h('h2', {}, 'Spend per day, last 30 days'),
      list.length ? stackedBars(label, list.map(r => String(r.date).slice(5)), [{ name, values: list.map(r => r.spend) }], dollars) : null,
      table(`Spend per day of key ${name}`, [
        { label: 'Day', cell: r => r.date },
        { label: 'Spend', class: 'num', cell: r => dollars(r.spend) },
      ], list.filter(r => Number(r.spend) > 0).reverse(), 'No spend in the last 30 days.'));
  } catch (e) {
    replace(region, alertBox(e));
  }
}

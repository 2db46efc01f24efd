// Reads the answers of GET /global/spend/report, whose shape differs per group_by, into one
// form the Usage page draws: the days, the groups, and per group and day the spend, tokens and
// requests (null where the report does not count them).

/** The views of the Usage page: label, group_by value, and how to read one entry of a day. */
export const VIEWS = [
  { label: 'Day', value: 'day' },
  { label: 'Key', value: 'api_key' },
  { label: 'Team', value: 'team' },
  { label: 'Model group', value: 'model' },
  { label: 'Deployment', value: 'deployment' },
  { label: 'Tag', value: 'tag' },
];

/** Per group_by: the list in each day, and one entry's group name and figures. */
const PER_DAY = {
  team: { list: 'teams', read: e => ({ name: e.team_name, spend: e.total_spend, tokens: sumTokens(e.metadata), requests: null }) },
  model: { list: 'models', read: e => ({ name: e.model, spend: e.total_spend, tokens: e.total_tokens, requests: e.api_requests }) },
  tag: { list: 'tags', read: e => ({ name: e.tag, spend: e.total_spend, tokens: e.total_tokens, requests: e.api_requests }) },
  deployment: {
    list: 'deployments',
    read: e => ({
      name: e.model_group ? `${e.model_id} (${e.model_group})` : String(e.model_id),
      spend: e.total_spend, tokens: e.total_tokens, requests: e.api_requests,
    }),
  },
};

function sumTokens(metadata) {
  if (!Array.isArray(metadata)) return null;
  return metadata.reduce((sum, m) => sum + (Number(m.total_tokens) || 0), 0);
}

function add(a, b) {
  if (b === null || b === undefined) return a;
  return (a || 0) + (Number(b) || 0);
}

/**
 * The report as {days: ['YYYY-MM-DD'], groups: [{name, spend, tokens, requests, perDay: Map}],
 * overTime: bool}, groups most spent first. overTime is false for api_key, which LiteLLM
 * answers as totals over the range.
 */
export function readReport(groupBy, rows) {
  const list = Array.isArray(rows) ? rows : [];
  const groups = new Map();
  const days = new Set();
  const count = (day, entry) => {
    const name = entry.name === null || entry.name === undefined || entry.name === '' ? '(none)' : String(entry.name);
    let group = groups.get(name);
    if (!group) {
      group = { name, spend: 0, tokens: null, requests: null, perDay: new Map() };
      groups.set(name, group);
    }
    group.spend = add(group.spend, entry.spend);
    group.tokens = add(group.tokens, entry.tokens);
    group.requests = add(group.requests, entry.requests);
    if (day) {
      days.add(day);
      const cell = group.perDay.get(day) || { spend: 0, tokens: null, requests: null };
      cell.spend = add(cell.spend, entry.spend);
      cell.tokens = add(cell.tokens, entry.tokens);
      cell.requests = add(cell.requests, entry.requests);
      group.perDay.set(day, cell);
    }
  };
  if (groupBy === 'api_key') {
    list.forEach(e => count(null, {
      name: e.api_key, spend: e.total_cost,
      tokens: add(add(null, e.total_input_tokens), e.total_output_tokens), requests: null,
    }));
  } else if (groupBy === 'day') {
    list.forEach(e => count(dayOf(e.group_by_day), {
      name: 'All calls', spend: e.total_spend, tokens: e.total_tokens, requests: e.api_requests,
    }));
  } else {
    const view = PER_DAY[groupBy];
    list.forEach(day => (day[view.list] || []).forEach(e => count(dayOf(day.group_by_day), view.read(e))));
  }
  return {
    days: [...days].sort(),
    groups: [...groups.values()].sort((a, b) => b.spend - a.spend),
    overTime: groupBy !== 'api_key',
  };
}

function dayOf(value) {
  return String(value || '').slice(0, 10);
}

/** Every day from `from` to `to` (YYYY-MM-DD, both included), at most 400 of them. */
export function daysBetween(from, to) {
  const out = [];
  const end = Date.parse(to + 'T00:00:00Z');
  for (let t = Date.parse(from + 'T00:00:00Z'); t <= end && out.length < 400; t += 86400000) {
    out.push(new Date(t).toISOString().slice(0, 10));
  }
  return out;
}

/**
 * At most `limit` series for a chart: the groups spending most, and the rest summed as
 * "Other". pick reads the figure from a day's cell.
 */
export function seriesOf(report, days, pick, limit) {
  const top = report.groups.slice(0, limit);
  const rest = report.groups.slice(limit);
  const series = top.map(g => ({ name: g.name, values: days.map(d => (g.perDay.has(d) ? pick(g.perDay.get(d)) : 0)) }));
  if (rest.length) {
    series.push({
      name: `Other (${rest.length})`,
      values: days.map(d => rest.reduce((sum, g) => sum + (g.perDay.has(d) ? Number(pick(g.perDay.get(d))) || 0 : 0), 0)),
    });
  }
  return series;
}

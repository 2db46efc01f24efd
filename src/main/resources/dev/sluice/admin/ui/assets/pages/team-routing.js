// A team's router settings (docs/keys.md "Team settings") as form fields: the strategy,
// retries, timeout, fallbacks ("group => fallback, fallback" per line, as on Router settings)
// and Sluice's deployment weights ("deployment id: weight" per line). Settings the form does
// not show (context_window_fallbacks, content_policy_fallbacks) are kept as they are, and so
// is a field left untouched: its value goes back as the API gave it, never as re-read text.

import { ApiFailure } from '../api.js';
import { h, field } from '../dom.js';
import { fallbackText, readFallbacks } from '../router-fields.js';
import { numberInput, number } from './forms.js';

const STRATEGIES = ['simple-shuffle', 'least-busy', 'usage-based-routing', 'usage-based-routing-v2',
  'latency-based-routing', 'cost-based-routing'];

/** The fieldset and its controls, filled from the team's current `router_settings`. */
export function routerFields(current) {
  const settings = current || {};
  const strategy = h('select', {}, h('option', { value: '' }, 'Gateway default'),
    STRATEGIES.map(s => h('option', { value: s }, s)));
  if (settings.routing_strategy && !STRATEGIES.includes(settings.routing_strategy)) {
    strategy.append(h('option', { value: settings.routing_strategy }, settings.routing_strategy));
  }
  strategy.value = settings.routing_strategy || '';
  const retries = numberInput(settings.num_retries);
  const timeout = numberInput(settings.timeout, true);
  const fallbacks = h('textarea', { rows: 3, spellcheck: 'false' });
  fallbacks.value = fallbackText(settings.fallbacks);
  const weights = h('textarea', { rows: 3, spellcheck: 'false' });
  weights.value = Object.entries(settings.deployment_weights || {}).map(([id, w]) => `${id}: ${w}`).join('\n');
  // What each field showed, to tell an untouched field from a changed one.
  const shown = { strategy: strategy.value, retries: retries.value, timeout: timeout.value,
    fallbacks: fallbacks.value, weights: weights.value };
  const controls = {
    'router_settings.routing_strategy': strategy,
    'router_settings.num_retries': retries,
    'router_settings.timeout': timeout,
    'router_settings.fallbacks': fallbacks,
    'router_settings.deployment_weights': weights,
  };
  const fieldset = h('fieldset', { class: 'router-fields' },
    h('legend', {}, 'Router settings for the team\'s calls'),
    h('div', { class: 'grid' },
      field('Routing strategy', strategy),
      field('Number of retries', retries, 'Empty: the gateway\'s.'),
      field('Timeout', timeout, 'Seconds for a whole call; empty: the gateway\'s.'),
      field('Fallbacks', fallbacks, 'One per line: group => fallback, fallback'),
      field('Deployment weights', weights, 'One per line: deployment id: weight (0 makes it a backup)')));
  return { fieldset, controls, strategy, retries, timeout, fallbacks, weights, shown };
}

/** Whether any router field differs from what it showed: else the team's router_settings need not be sent. */
export function routerChanged(routing) {
  return Object.entries(routing.shown).some(([name, text]) => routing[name].value !== text);
}

/** Lines of "deployment id: weight", each split at its last colon (deployment ids may hold colons, weights never). */
function pairs(control, param, what) {
  const lines = control.value.split('\n').map(l => l.trim()).filter(Boolean);
  return lines.map(line => {
    const at = line.lastIndexOf(':');
    if (at <= 0) {
      throw new ApiFailure(400, { message: `"${line}" is not ${what}.`, param });
    }
    return [line.slice(0, at).trim(), line.slice(at + 1).trim()];
  });
}

/**
 * The team's new `router_settings`: the changed fields' values over the current ones (which
 * an update replaces whole), an emptied field leaving its setting out, an untouched one
 * keeping its current value as it is. Throws an ApiFailure naming the field for a line it
 * cannot read.
 */
export function routerSettings(routing, current) {
  const settings = { ...(current || {}) };
  // `field` names the form's control (and what it showed); `name` the setting it holds.
  const set = (name, field, read) => {
    if (routing[field].value === routing.shown[field]) return;
    const value = read();
    if (value === null || value === undefined) delete settings[name];
    else settings[name] = value;
  };
  set('routing_strategy', 'strategy', () => routing.strategy.value || null);
  set('num_retries', 'retries', () => number(routing.retries));
  set('timeout', 'timeout', () => number(routing.timeout));
  set('fallbacks', 'fallbacks', () => {
    const read = readFallbacks(routing.fallbacks.value);
    if (read.error) throw new ApiFailure(400, { message: read.error, param: 'router_settings.fallbacks' });
    return read.value.length ? read.value : null;
  });
  set('deployment_weights', 'weights', () => {
    const weights = pairs(routing.weights, 'router_settings.deployment_weights', 'deployment id: weight');
    return weights.length
      ? Object.fromEntries(weights.map(([id, w]) => [id, Number.isFinite(Number(w)) && w !== '' ? Number(w) : w])) : null;
  });
  return settings;
}

/** A team's router settings in one line, or "Gateway defaults". */
export function routerSummary(settings) {
  const s = settings || {};
  const parts = [];
  if (s.routing_strategy) parts.push(s.routing_strategy);
  if (s.num_retries !== undefined && s.num_retries !== null) parts.push(`${s.num_retries} retries`);
  if (s.timeout !== undefined && s.timeout !== null) parts.push(`timeout ${s.timeout}s`);
  if (Array.isArray(s.fallbacks) && s.fallbacks.length) parts.push(`fallbacks ${fallbackText(s.fallbacks).replace(/\n/g, '; ')}`);
  const weights = Object.entries(s.deployment_weights || {});
  if (weights.length) parts.push(`weights ${weights.map(([id, w]) => `${id}=${w}`).join(', ')}`);
  for (const other of ['context_window_fallbacks', 'content_policy_fallbacks']) {
    if (Array.isArray(s[other]) && s[other].length) parts.push(other.replace(/_/g, ' '));
  }
  return parts.length ? parts.join(' · ') : 'Gateway defaults';
}

// The Router settings page: every effective setting with its value and source from
// GET /router/settings, and a form for the ones that change at run time. Save posts only what
// changed to /router/settings/update; Reset sends null for one setting, so the config file's
// value (or the default) applies again. The API's refusals are shown at their fields.

import { api } from '../api.js';
import { h, field, alertBox, notice, table, replace, heading, showFieldError } from '../dom.js';
import { whileBusy } from '../busy.js';
import { EDITABLE, describeValue } from '../router-fields.js';

export async function render(main) {
  let settings = (await api.get('/router/settings')).settings || {};
  const status = h('div', { class: 'status-slot' });
  const save = h('button', { type: 'submit', class: 'primary' }, 'Save');
  const everything = h('div', {});
  const rows = EDITABLE.map(spec => {
    const control = spec.control();
    const source = h('p', { class: 'hint source' });
    const reset = h('button', { type: 'button', class: 'reset', 'aria-label': `Reset ${spec.label}` }, 'Reset');
    reset.addEventListener('click', async () => {
      await send({ [spec.name]: null }, `${spec.label} reset.`);
      // The button is disabled once nothing is left to reset: keep the focus nearby.
      if (reset.disabled) control.focus();
    });
    const wrap = h('div', { class: 'setting' }, field(spec.label, control, spec.hint), source, reset);
    return { spec, control, source, reset, wrap };
  });
  const buttons = () => [save, ...rows.map(r => r.reset)];

  function fill() {
    rows.forEach(({ spec, control, source, reset }) => {
      const setting = settings[spec.name] || {};
      spec.show(control, setting.value);
      showFieldError(control, null);
      replace(source, sourceText(setting));
      reset.disabled = setting.source !== 'database';
      reset.title = reset.disabled ? 'Not changed here: nothing to reset' : '';
    });
    replace(everything, settingsTable(settings));
  }

  function changes() {
    const body = {};
    let bad = false;
    rows.forEach(({ spec, control }) => {
      showFieldError(control, null);
      const read = spec.read(control);
      if (read.error) {
        showFieldError(control, read.error);
        bad = true;
        return;
      }
      const now = settings[spec.name] ? settings[spec.name].value : undefined;
      if (JSON.stringify(read.value) !== JSON.stringify(spec.canonical(now))) body[spec.name] = read.value;
    });
    return bad ? null : body;
  }

  async function send(body, done) {
    replace(status);
    await whileBusy(buttons(), async () => {
      try {
        const answer = await api.post('/router/settings/update', body);
        settings = answer.settings || settings;
        fill();
        replace(status, notice(`${done} ${answer.message || ''}`.trim()));
      } catch (e) {
        showRefusal(e);
      }
    }, { region: form });
    rows.forEach(({ spec, reset }) => {
      reset.disabled = !settings[spec.name] || settings[spec.name].source !== 'database';
    });
  }

  function showRefusal(e) {
    replace(status, alertBox(e));
    const named = problemsByField(e.message || '');
    if (e.param && !named.has(e.param.split(/[.[]/)[0])) named.set(e.param.split(/[.[]/)[0], e.message);
    let first = null;
    rows.forEach(({ spec, control }) => {
      if (!named.has(spec.name)) return;
      showFieldError(control, named.get(spec.name));
      first = first || control;
    });
    if (first) first.focus();
  }

  const form = h('form', { class: 'card', 'aria-labelledby': 'change-settings', novalidate: true },
    h('h2', { id: 'change-settings' }, 'Change settings'),
    h('p', { class: 'muted' }, 'Changes are served from the next request on, by every replica within seconds. Save sends only the fields you changed; Reset brings back the config file\'s value (or the default).'),
    h('div', { class: 'settings-grid' }, rows.map(r => r.wrap)),
    status,
    h('div', { class: 'actions' }, save));
  form.addEventListener('submit', async event => {
    event.preventDefault();
    replace(status);
    const body = changes();
    if (body === null) {
      replace(status, alertBox('Some fields need fixing; see the messages beside them.'));
      return;
    }
    if (!Object.keys(body).length) {
      replace(status, notice('Nothing changed.'));
      return;
    }
    await send(body, `Saved ${Object.keys(body).join(', ')}.`);
  });

  fill();
  replace(main, heading('Router settings'), form,
    h('section', { 'aria-labelledby': 'every-setting' }, h('h2', { id: 'every-setting' }, 'Every setting'), everything));
}

/**
 * The refusal's message split by setting: "Router settings not changed: num_retries: -1 (...);
 * fallbacks[0].a[0]: x (...)." gives num_retries and fallbacks their own sentence.
 */
function problemsByField(message) {
  const named = new Map();
  const text = message.replace(/^Router settings not changed:\s*/, '').replace(/\.$/, '');
  text.split('; ').forEach(part => {
    const match = /^([a-z_]+)[\s:.[]/.exec(part);
    if (!match) return;
    const name = match[1];
    named.set(name, named.has(name) ? `${named.get(name)}; ${part}` : part);
  });
  return named;
}

function sourceText(setting) {
  const source = setting.source || 'default';
  if (source === 'database') {
    const back = setting.reset_to ? ` Reset brings back ${describeValue(setting.reset_to.value)} (${setting.reset_to.source}).` : '';
    return `Source: database (changed here).${back}`;
  }
  return `Source: ${source}${setting.config_key ? ` (${setting.config_key})` : ''}.`;
}

function settingsTable(settings) {
  return table('Every router setting', [
    { label: 'Setting', cell: ([name]) => h('code', {}, name) },
    { label: 'Value', cell: ([, s]) => h('span', { class: 'mono pre' }, describeValue(s.value)) },
    { label: 'Source', cell: ([, s]) => [sourceBadge(s.source), s.config_key ? h('div', { class: 'muted' }, s.config_key) : null] },
    { label: 'Changes at run time', cell: ([, s]) => (s.updatable ? 'yes' : 'no, config file only') },
  ], Object.entries(settings), 'No settings answered.');
}

function sourceBadge(source) {
  const kind = source === 'database' ? 'warn' : source === 'config file' ? 'ok' : '';
  return h('span', { class: `badge ${kind}` }, source || 'default');
}

// The Playground page: a chat with a model group through the gateway, streamed. The call is
// sent with the session (cookie and CSRF token) or, when a virtual key is typed in, with that
// key alone (no cookie), which is never stored. After each answer: the deployment that
// answered, its retries and fallbacks, what it cost and how long it took.

import { api, headers, failureOf, ApiFailure } from '../api.js';
import { h, field, alertBox, replace, heading, dollars } from '../dom.js';
import { readEvents } from '../sse.js';

export async function render(main) {
  const group = h('select', { name: 'model' });
  const key = h('input', { type: 'password', name: 'virtual-key', autocomplete: 'off', spellcheck: 'false' });
  const message = h('textarea', { name: 'message', rows: 4, required: true });
  const send = h('button', { type: 'submit', class: 'primary' }, 'Send');
  const clear = h('button', { type: 'button' }, 'Clear');
  const chat = h('ol', { class: 'chat', 'aria-label': 'Conversation' });
  const status = h('div', { class: 'status-slot' });
  const facts = h('div', { class: 'call-facts' });
  /** The conversation sent with the next message: [{role, content}]. */
  let history = [];
  let inFlight = null;

  const form = h('form', { class: 'card', 'aria-label': 'Chat' },
    h('div', { class: 'grid' },
      field('Model group', group),
      field('Virtual key', key, 'Optional: send as this key instead of your session. Never stored.')),
    field('Message', message, 'Ctrl+Enter sends.'),
    status,
    h('div', { class: 'actions' }, send, clear));
  replace(main, heading('Playground'), h('h2', { class: 'visually-hidden' }, 'Conversation'), chat, form, facts);

  try {
    const models = await api.get('/v1/models');
    const ids = ((models && models.data) || []).map(m => m.id).sort();
    replace(group, ids.map(id => h('option', { value: id }, id)));
    if (!ids.length) replace(status, alertBox('No model group is served: add a model first.'));
  } catch (e) {
    replace(status, alertBox(e));
  }

  message.addEventListener('keydown', event => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      form.requestSubmit();
    }
  });

  clear.addEventListener('click', () => {
    if (inFlight) inFlight.abort();
    history = [];
    replace(chat);
    replace(status);
    replace(facts);
    message.value = '';
    message.focus();
  });

  form.addEventListener('submit', async event => {
    event.preventDefault();
    replace(status);
    const text = message.value.trim();
    if (!group.value) {
      replace(status, alertBox('Pick a model group.'));
      return;
    }
    if (!text) {
      replace(status, alertBox('Write a message first.'));
      message.focus();
      return;
    }
    const controller = new AbortController();
    inFlight = controller;
    send.disabled = true;
    const userTurn = h('li', { class: 'turn user' }, h('span', { class: 'who-said' }, 'You'), text);
    const answer = h('div', { class: 'answer', 'aria-live': 'polite' });
    const botTurn = h('li', { class: 'turn assistant', 'aria-busy': 'true' },
      h('span', { class: 'who-said' }, group.value), answer);
    chat.append(userTurn, botTurn);
    message.value = '';
    replace(facts);
    const asked = [...history, { role: 'user', content: text }];
    try {
      const result = await chatStream({ model: group.value, messages: asked, key: key.value.trim(), signal: controller.signal, answer });
      history = [...asked, { role: 'assistant', content: result.text }];
      replace(facts, await describeCall(result, key.value.trim()));
    } catch (e) {
      if (e.name === 'AbortError') return;
      if (!answer.textContent) {
        userTurn.remove();
        botTurn.remove();
        message.value = text;
      } else {
        botTurn.append(h('span', { class: 'badge bad' }, 'cut off'));
      }
      replace(status, alertBox(e));
    } finally {
      botTurn.removeAttribute('aria-busy');
      if (inFlight === controller) inFlight = null;
      send.disabled = false;
    }
  });
}

/** The request's init: the typed key alone when there is one, else the session's cookie and CSRF token. */
function requestInit(key, extra) {
  if (key) {
    return { credentials: 'omit', headers: { Accept: 'application/json', Authorization: `Bearer ${key}`, ...extra } };
  }
  return { credentials: 'same-origin', headers: headers(extra) };
}

/** Sends the chat with stream: true and appends each delta to `answer` as it arrives. */
async function chatStream({ model, messages, key, signal, answer }) {
  const started = performance.now();
  const init = requestInit(key, { 'Content-Type': 'application/json', Accept: 'text/event-stream' });
  const response = await fetch('/v1/chat/completions', {
    ...init, method: 'POST', signal, cache: 'no-store',
    body: JSON.stringify({ model, messages, stream: true, stream_options: { include_usage: true } }),
  });
  if (!response.ok) throw await failureOf(response);
  const headed = performance.now();
  let firstToken = null;
  let usage = null;
  let text = '';
  const finished = await readEvents(response.body, data => {
    let event;
    try {
      event = JSON.parse(data);
    } catch (e) {
      return;
    }
    if (event.error) throw new ApiFailure(response.status, event.error);
    if (event.usage) usage = event.usage;
    const delta = event.choices && event.choices[0] && event.choices[0].delta;
    if (delta && typeof delta.content === 'string' && delta.content) {
      if (firstToken === null) firstToken = performance.now();
      text += delta.content;
      answer.append(delta.content);
    }
  });
  if (!finished) throw new ApiFailure(502, { message: 'The stream ended before it was complete.' });
  return { text, usage, response, elapsed: performance.now() - started, head: headed - started, firstToken: firstToken && firstToken - started };
}

/** The call's facts from the answer's headers, and its final cost from /calls/recent. */
async function describeCall(result, key) {
  const header = name => result.response.headers.get(name);
  const callId = header('x-litellm-call-id');
  let cost = header('x-litellm-response-cost');
  let costNote = null;
  let recorded = null;
  if (callId) {
    try {
      recorded = await recordedCall(callId, key);
      if (recorded && (cost === null || cost === undefined)) cost = recorded.cost;
      if (!recorded && cost === null) costNote = 'not recorded yet';
    } catch (e) {
      costNote = `could not be read: ${e.message}`;
    }
  }
  const base = header('x-litellm-model-api-base');
  const rows = [
    ['Deployment', `${header('x-litellm-model-id') || '—'}${header('x-litellm-model-group') ? ` (group ${header('x-litellm-model-group')})` : ''}`],
    ['API base', base || '—'],
    ['Retries', header('x-litellm-attempted-retries') ?? '—'],
    ['Fallbacks', header('x-litellm-attempted-fallbacks') ?? '—'],
    ['Cost', cost !== null && cost !== undefined ? dollars(cost) : `unknown (${costNote || 'not sent'})`],
    ['Latency', `${Math.round(result.elapsed)} ms in all, first token after ${result.firstToken === null ? '—' : Math.round(result.firstToken) + ' ms'}` +
      (recorded && recorded.latency_ms !== undefined ? `; the gateway counted ${recorded.latency_ms} ms` : '')],
    ['Tokens', result.usage ? `${result.usage.prompt_tokens} in, ${result.usage.completion_tokens} out` : '—'],
    ['Call id', callId || '—'],
  ];
  return h('section', { class: 'card', 'aria-labelledby': 'last-call' },
    h('h2', { id: 'last-call' }, 'Last call'),
    h('dl', { class: 'facts' }, rows.map(([k, v]) => [h('dt', {}, k), h('dd', { class: k === 'API base' || k === 'Call id' ? 'mono' : null }, String(v))])));
}

/**
 * The call as the gateway recorded it. Its record is written as the stream ends, so a first
 * read may come a moment early: it is asked again twice, a little later each time.
 */
async function recordedCall(callId, key) {
  for (const wait of [0, 300, 900]) {
    if (wait) await new Promise(resolve => setTimeout(resolve, wait));
    let answer;
    if (key) {
      const response = await fetch(`/calls/recent?call_id=${encodeURIComponent(callId)}`, { ...requestInit(key), cache: 'no-store' });
      if (!response.ok) throw await failureOf(response);
      answer = await response.json();
    } else {
      answer = await api.get('/calls/recent', { call_id: callId });
    }
    const found = answer && answer.calls && answer.calls.find(c => c.call_id === callId);
    if (found) return found;
  }
  return null;
}

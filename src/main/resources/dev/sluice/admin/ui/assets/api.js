// The management API as the UI calls it: same-origin requests that carry the session cookie
// (set by POST /ui/api/session, HttpOnly, so never readable here) and the session's CSRF token
// in a header. Every failure becomes an ApiFailure holding the OpenAI error shape's fields.

let csrfToken = null;

/** Remembers the CSRF token of the session just opened or found (in memory only). */
export function useCsrfToken(token) {
  csrfToken = token;
}

/** A refused or failed call: the HTTP status and the OpenAI error's message, type, param and code. */
export class ApiFailure extends Error {
  constructor(status, error) {
    super(error.message || `HTTP ${status}`);
    this.status = status;
    this.type = error.type || null;
    this.param = error.param || null;
    this.code = error.code || null;
  }
}

function query(params) {
  if (!params) return '';
  const pairs = Object.entries(params).filter(([, v]) => v !== undefined && v !== null && v !== '');
  return pairs.length ? '?' + new URLSearchParams(pairs).toString() : '';
}

/** The headers every call sends; `extra` adds to them. */
export function headers(extra) {
  const all = { 'Accept': 'application/json', ...extra };
  if (csrfToken) all['X-CSRF-Token'] = csrfToken;
  return all;
}

/** The ApiFailure a refused response stands for, read from its OpenAI error body when it has one. */
export async function failureOf(response) {
  let error = {};
  try {
    const body = await response.json();
    error = body && body.error ? body.error : body || {};
  } catch (e) {
    error = { message: `HTTP ${response.status}` };
  }
  if (typeof error === 'string') error = { message: error };
  return new ApiFailure(response.status, error);
}

/** Sends one request and answers its JSON (null for an empty answer); throws ApiFailure. */
export async function request(method, path, { params, body } = {}) {
  const init = { method, credentials: 'same-origin', headers: headers(), cache: 'no-store' };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers['Content-Type'] = 'application/json';
  }
  const response = await fetch(path + query(params), init);
  if (!response.ok) throw await failureOf(response);
  const text = await response.text();
  return text ? JSON.parse(text) : null;
}

export const api = {
  get: (path, params) => request('GET', path, { params }),
  post: (path, body, params) => request('POST', path, { body, params }),
  patch: (path, body) => request('PATCH', path, { body }),
  delete: (path, body) => request('DELETE', path, { body }),
};

/** Statuses whose answers never have a body, so a Response cannot be made with one. */
const NO_BODY = [101, 103, 204, 205, 304];

/**
 * Counts every fetch the page makes, whoever makes it (api.js or a page calling fetch itself),
 * in `data-requests-started` and `data-requests-done` on `root`, so anyone watching the page
 * (the browser tests) can tell when it has nothing left in flight. A request is done when its
 * answer's body has been read to the end, cancelled or has failed, or when no answer came:
 * the headers alone are not the end of a streamed answer (so a caller reads or cancels every
 * body it is given, as request() and the Playground do). Installs itself once.
 */
export function countRequests(root = document.documentElement) {
  if (window.fetch.counted) return;
  const original = window.fetch.bind(window);
  let started = 0;
  let done = 0;
  root.dataset.requestsStarted = '0';
  root.dataset.requestsDone = '0';
  const counted = async (...args) => {
    root.dataset.requestsStarted = String(++started);
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      root.dataset.requestsDone = String(++done);
    };
    let response;
    try {
      response = await original(...args);
    } catch (e) {
      finish();
      throw e;
    }
    if (!response.body || NO_BODY.includes(response.status)) {
      finish();
      return response;
    }
    return watchedBody(response, finish);
  };
  counted.counted = true;
  window.fetch = counted;
}

/** The same answer, whose body calls `finish` once it has been read to the end, cancelled or broken. */
function watchedBody(response, finish) {
  const reader = response.body.getReader();
  const body = new ReadableStream({
    async pull(controller) {
      try {
        const { value, done } = await reader.read();
        if (done) {
          controller.close();
          finish();
        } else {
          controller.enqueue(value);
        }
      } catch (e) {
        controller.error(e);
        finish();
      }
    },
    cancel(reason) {
      finish();
      return reader.cancel(reason);
    },
  });
  const watched = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  for (const name of ['url', 'redirected', 'type']) Object.defineProperty(watched, name, { value: response[name] });
  return watched;
}

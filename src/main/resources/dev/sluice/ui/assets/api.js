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

async function failure(response) {
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
  if (!response.ok) throw await failure(response);
  const text = await response.text();
  return text ? JSON.parse(text) : null;
}

export const api = {
  get: (path, params) => request('GET', path, { params }),
  post: (path, body, params) => request('POST', path, { body, params }),
  patch: (path, body) => request('PATCH', path, { body }),
  delete: (path, body) => request('DELETE', path, { body }),
};

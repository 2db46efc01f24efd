// The UI's shell: finds the session, shows the sign-in form or the navigation, and renders the
// page the address names (/ui/<page>), each page being a module under pages/ exporting
// render(main, ctx). Links are real links; the shell intercepts them so pages change without
// reloading, and the back button works. The root element says what the page is doing, for
// whoever watches it (the browser tests): data-page-ready names the page once it has rendered
// (and is gone while a page is on its way), and api.js's countRequests() counts its requests.

import { api, ApiFailure, useCsrfToken, countRequests } from './api.js';
import { h, field, alertBox, replace, heading } from './dom.js';

/** The pages: path segment, link text, module, and who sees them ('admin' or 'key'). */
const PAGES = [
  { path: 'models', name: 'Models', module: './pages/models.js', roles: ['admin'] },
  { path: 'keys', name: 'Keys', module: './pages/keys.js', roles: ['admin'] },
  { path: 'teams', name: 'Teams', module: './pages/teams.js', roles: ['admin'] },
  { path: 'users', name: 'Users', module: './pages/users.js', roles: ['admin'] },
  { path: 'usage', name: 'Usage', module: './pages/usage.js', roles: ['admin', 'key'] },
  { path: 'logs', name: 'Logs', module: './pages/logs.js', roles: ['admin', 'key'] },
  { path: 'router', name: 'Router settings', module: './pages/router.js', roles: ['admin'] },
  { path: 'playground', name: 'Playground', module: './pages/playground.js', roles: ['admin'] },
  { path: 'health', name: 'Health', module: './pages/health.js', roles: ['admin'] },
];

const main = document.getElementById('main');
const nav = document.getElementById('nav');
const who = document.getElementById('who');
let session = null;
/** Counts the renders begun, so only the latest one, when it ends, says the page is ready. */
let renders = 0;

function pagesFor(role) {
  return PAGES.filter(p => p.roles.includes(role));
}

function currentPath() {
  const rest = location.pathname.replace(/^\/ui\/?/, '').split('/')[0];
  return rest || '';
}

/** Goes to /ui/<path> (adding to history unless `replaceHistory`) and renders it. */
export function navigate(path, replaceHistory) {
  const url = '/ui/' + path;
  if (replaceHistory) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  render();
}

function setTitle(name) {
  document.title = name ? `Sluice — ${name}` : 'Sluice';
}

function renderNav() {
  if (!session) {
    replace(nav);
    replace(who);
    return;
  }
  const here = currentPath();
  replace(nav, h('ul', {}, pagesFor(session.role).map(p => h('li', {},
    h('a', { href: '/ui/' + p.path, 'aria-current': p.path === here ? 'page' : null, 'data-nav': p.path }, p.name)))));
  replace(who,
    h('span', { class: 'muted' }, session.role === 'admin' ? 'Master key' : `Key ${session.key_alias || session.key_name || ''}`),
    h('button', { type: 'button', class: 'link', onclick: signOut }, 'Sign out'));
}

async function signOut() {
  try {
    await api.delete('/ui/api/session');
  } catch (e) {
    // The cookie may be gone already; the sign-in form follows either way.
  }
  session = null;
  useCsrfToken(null);
  navigate('', true);
}

function signInForm() {
  setTitle('Sign in');
  const key = h('input', { type: 'password', name: 'key', autocomplete: 'current-password', required: true, spellcheck: 'false' });
  const status = h('div', { class: 'status-slot' });
  const form = h('form', { class: 'card narrow', 'aria-labelledby': 'signin-title' },
    h('h1', { id: 'signin-title', tabindex: '-1', class: 'page-title' }, 'Sign in to Sluice'),
    h('p', { class: 'muted' }, 'The master key manages the gateway; a virtual key shows its own usage and logs.'),
    field('Master key', key, 'Or a virtual key (sk-…).'),
    status,
    h('button', { type: 'submit', class: 'primary' }, 'Sign in'));
  form.addEventListener('submit', async event => {
    event.preventDefault();
    replace(status);
    try {
      const opened = await api.post('/ui/api/session', { key: key.value });
      key.value = '';
      opened && startSession(opened);
      const first = pagesFor(session.role)[0].path;
      const wanted = currentPath();
      navigate(pagesFor(session.role).some(p => p.path === wanted) ? wanted : first, true);
    } catch (e) {
      key.value = '';
      replace(status, alertBox(e instanceof ApiFailure && e.status === 401 ? 'That key was not accepted.' : e));
      key.focus();
    }
  });
  replace(main, form);
  key.focus();
}

function startSession(found) {
  session = found;
  useCsrfToken(found.csrf_token);
}

/** Renders what the address names, marking the page not ready until the latest render ends. */
async function render() {
  const mine = ++renders;
  delete document.documentElement.dataset.pageReady;
  let shown = null;
  try {
    shown = await renderPage();
  } finally {
    // A render begun meanwhile (a redirect, the back button, a lost session) says it instead.
    if (mine === renders) document.documentElement.dataset.pageReady = shown || 'error';
  }
}

/** Shows the sign-in form or the page the address names; answers its path ('sign-in' for the form). */
async function renderPage() {
  renderNav();
  if (!session) {
    signInForm();
    return 'sign-in';
  }
  const pages = pagesFor(session.role);
  const page = pages.find(p => p.path === currentPath());
  if (!page) {
    navigate(pages[0].path, true);
    return null;
  }
  setTitle(page.name);
  replace(main, h('p', { class: 'muted' }, 'Loading…'));
  try {
    const module = await import(page.module);
    const ctx = { session, navigate, setTitle };
    replace(main);
    await module.render(main, ctx);
  } catch (e) {
    if (e instanceof ApiFailure && e.status === 401) {
      session = null;
      render();
      return null;
    }
    replace(main, heading(page.name), alertBox(e));
  }
  const title = main.querySelector('h1');
  if (title && !main.contains(document.activeElement)) title.focus();
  return page.path;
}

document.addEventListener('click', event => {
  const link = event.target.closest('a[href^="/ui/"]');
  if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0 || link.target) return;
  event.preventDefault();
  navigate(link.getAttribute('href').slice(4));
});
window.addEventListener('popstate', render);

async function start() {
  try {
    const found = await api.get('/ui/api/session');
    if (found) startSession(found);
  } catch (e) {
    if (!(e instanceof ApiFailure && e.status === 401)) {
      replace(main, alertBox(e));
      document.documentElement.dataset.pageReady = 'error';
      return;
    }
  }
  render();
}

countRequests();
start();

// A new key's sk-… secret, shown once in a page's `secret` region with `Copy key` and `Done`:
// the Keys page shows the key /key/generate made, the Users page the one /user/new made.

import { h, replace } from '../dom.js';

/**
 * Shows a new key's secret once, in a region with a copy button. The secret lives only in
 * that region's text: closing it, or leaving the page, removes it; it is dropped from the
 * answer it came in at once. `title` names the key (by default by its alias or masked name).
 */
export function showSecret(page, created, title) {
  const code = h('code', { class: 'secret-value' }, created.key);
  delete created.key;
  const copyStatus = h('p', { class: 'small', role: 'status' });
  const copy = h('button', { type: 'button', class: 'primary' }, 'Copy key');
  const done = h('button', { type: 'button' }, 'Done');
  const titleId = 'new-key-title';
  const heading = h('h2', { id: titleId, tabindex: '-1' }, title || `New key ${created.key_alias || created.key_name}`);
  copy.addEventListener('click', async () => {
    try {
      if (!navigator.clipboard || !window.isSecureContext) throw new Error('no clipboard');
      await navigator.clipboard.writeText(code.textContent);
      copyStatus.textContent = 'Copied to the clipboard.';
    } catch (e) {
      selectText(code);
      copyStatus.textContent = 'Copying is not available here: the key is selected, copy it with Ctrl+C (⌘C).';
    }
  });
  done.addEventListener('click', () => {
    code.textContent = '';
    replace(page.secret);
    page.create.focus();
  });
  replace(page.secret, h('section', { class: 'card secret-card', 'aria-labelledby': titleId },
    heading,
    h('p', {}, h('strong', {}, 'Copy this key now: it will not be shown again.'),
      ' Only its masked name is kept.'),
    h('div', { class: 'secret' }, code, copy, done),
    copyStatus));
  return heading;
}

function selectText(element) {
  const range = document.createRange();
  range.selectNodeContents(element);
  const selection = window.getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
}

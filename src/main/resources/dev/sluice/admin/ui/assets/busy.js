// Runs one request at a time from a control: the buttons are disabled (and the region marked
// busy) while it is in flight, and enabled again however it ends.

/**
 * Disables `buttons` (a button or a list), marks `region` aria-busy, runs `work`, and undoes
 * both when it settles; answers what `work` answers (or throws what it throws).
 * While busy, a button may show `busyText` instead of its own.
 */
export async function whileBusy(buttons, work, { region, busyText } = {}) {
  const list = (Array.isArray(buttons) ? buttons : [buttons]).filter(Boolean);
  const texts = list.map(b => b.textContent);
  list.forEach(b => {
    b.disabled = true;
    if (busyText && b === list[0]) b.textContent = busyText;
  });
  if (region) region.setAttribute('aria-busy', 'true');
  try {
    return await work();
  } finally {
    list.forEach((b, i) => {
      b.disabled = false;
      b.textContent = texts[i];
    });
    if (region) region.removeAttribute('aria-busy');
  }
}

/** A UTC day, YYYY-MM-DD, `daysAgo` days before today. */
export function utcDay(daysAgo) {
  const date = new Date(Date.now() - (daysAgo || 0) * 86400000);
  return date.toISOString().slice(0, 10);
}

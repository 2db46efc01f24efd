// The Teams page: every team (/team/list) with its spend against its budget, its limits and
// router settings, and its members from /team/info; creating, editing and deleting teams,
// adding, editing and removing members.

import { api } from '../api.js';
import { h, uid, field, alertBox, notice, table, replace, when, dollars, heading } from '../dom.js';
import { openForm, openRecordForm, confirmAction, runAction, textInput, numberInput, text, number, list, withoutNulls, spendCell, limitsText,
  refreshAfterChange }
  from './forms.js';
import { routerFields, routerSettings, routerChanged, routerSummary } from './team-routing.js';

export async function render(main, ctx) {
  ctx.setTitle('Teams');
  const status = h('div', { class: 'status-slot' });
  const listed = h('div', { class: 'teams' });
  const create = h('button', { type: 'button', class: 'primary' }, 'Create team');
  const page = { status, listed, create };
  create.addEventListener('click', () => editTeam(page, null, create));
  page.refresh = () => refresh(page);
  replace(main, heading('Teams'), h('div', { class: 'toolbar' }, create), status, listed);
  await page.refresh();
}

async function refresh(page) {
  const teams = await api.get('/team/list');
  const infos = await Promise.all((teams || []).map(team => api.get('/team/info', { team_id: team.team_id })
    .then(body => ({ body }), error => ({ error }))));
  replace(page.listed, teams && teams.length
    ? teams.map((team, i) => teamCard(page, team, infos[i]))
    : h('p', { class: 'muted' }, 'No team yet. A team shares one budget and one set of limits among its keys.'));
}

function teamName(team) {
  return team.team_alias || team.team_id;
}

function teamCard(page, team, info) {
  const name = teamName(team);
  const titleId = uid('team');
  const edit = h('button', { type: 'button', 'aria-label': `Edit ${name}` }, 'Edit');
  const addMember = h('button', { type: 'button', 'aria-label': `Add member to ${name}` }, 'Add member');
  const remove = h('button', { type: 'button', class: 'danger', 'aria-label': `Delete ${name}` }, 'Delete');
  const keys = info.body ? info.body.keys || [] : [];
  edit.addEventListener('click', () => editTeam(page, team, edit));
  addMember.addEventListener('click', () => addMemberForm(page, team, addMember));
  remove.addEventListener('click', () => deleteTeam(page, team, keys.length, [edit, addMember, remove]));
  return h('section', { class: 'card team-card', 'aria-labelledby': titleId },
    h('div', { class: 'card-head' },
      h('h2', { id: titleId }, name),
      h('div', { class: 'actions' }, edit, addMember, remove)),
    h('dl', { class: 'facts' },
      fact('Team id', h('code', {}, team.team_id)),
      fact('Spend', spendCell(team.spend, team.max_budget)),
      fact('Budget period', team.budget_duration ? `${team.budget_duration}, resets ${when(team.budget_reset_at)}` : 'None'),
      fact('Models', team.models && team.models.length ? team.models.join(', ') : 'All'),
      fact('Limits', limitsText(team)),
      fact('Keys', String(keys.length)),
      fact('Router settings', routerSummary(team.router_settings))),
    info.error ? alertBox(`The members of ${name} could not be read: ${info.error.message}`)
      : members(page, team, info.body.team_info || {}));
}

function fact(label, value) {
  return h('div', {}, h('dt', {}, label), h('dd', {}, value));
}

/** The members with their role and their spend and budget in the team. */
function members(page, team, info) {
  const memberships = new Map((info.team_memberships || []).map(m => [m.user_id, m]));
  const rows = (info.members_with_roles || []).map(m => ({ ...m, membership: memberships.get(m.user_id) || {} }));
  return h('div', {},
    h('h3', {}, `Members of ${teamName(team)}`),
    table(`Members of ${teamName(team)}`, [
      { label: 'User', cell: m => h('span', {}, h('code', {}, m.user_id), m.user_email ? h('span', { class: 'muted' }, ` ${m.user_email}`) : null) },
      { label: 'Role', cell: m => m.role },
      { label: 'Spend in team', cell: m => spendCell(m.membership.spend,
        m.membership.litellm_budget_table ? m.membership.litellm_budget_table.max_budget : null) },
      { label: 'Actions', cell: m => memberActions(page, team, m) },
    ], rows, 'No members.'));
}

function memberActions(page, team, member) {
  const remove = h('button', { type: 'button', class: 'danger', 'aria-label': `Remove ${member.user_id} from ${teamName(team)}` },
    'Remove');
  remove.addEventListener('click', async () => {
    const confirmed = await confirmAction({
      title: 'Remove member?',
      message: `${member.user_id} leaves ${teamName(team)}; their spend in the team starts again from 0 if they are added back.`,
      confirmLabel: 'Remove',
      opener: remove,
    });
    if (!confirmed) return;
    const done = await runAction(remove, page.status,
      () => api.post('/team/member_delete', { team_id: team.team_id, user_id: member.user_id }),
      `Removed ${member.user_id} from ${teamName(team)}.`);
    if (done) await refreshAfterChange(page, `Add member to ${teamName(team)}`);
  });
  const edit = h('button', { type: 'button', 'aria-label': `Edit ${member.user_id} in ${teamName(team)}` }, 'Edit');
  edit.addEventListener('click', () => editMemberForm(page, team, member, edit));
  return h('div', { class: 'actions' }, edit, remove);
}

/** A member's role and budget in the team, changed through /team/member_update (only what changed is sent). */
function editMemberForm(page, team, member, opener) {
  const role = h('select', {}, h('option', { value: 'user' }, 'user'), h('option', { value: 'admin' }, 'admin'));
  role.value = member.role === 'admin' ? 'admin' : 'user';
  const table = member.membership && member.membership.litellm_budget_table;
  const shownBudget = table && table.max_budget !== null && table.max_budget !== undefined ? String(table.max_budget) : '';
  const budget = numberInput(shownBudget, true);
  openForm({
    title: `Edit ${member.user_id} in ${teamName(team)}`,
    content: h('div', { class: 'grid' },
      field('Role', role),
      field('Budget in team', budget, 'Dollars; empty for none.')),
    submitLabel: 'Save',
    controls: { role, max_budget_in_team: budget },
    opener,
    submit: async () => {
      const body = { team_id: team.team_id, user_id: member.user_id };
      if (role.value !== (member.role === 'admin' ? 'admin' : 'user')) body.role = role.value;
      if (budget.value.trim() !== shownBudget) body.max_budget_in_team = number(budget);
      if (Object.keys(body).length === 2) {
        replace(page.status, notice('Nothing changed.'));
        return null;
      }
      await api.post('/team/member_update', body);
      replace(page.status, notice(`Saved ${member.user_id} in ${teamName(team)}.`));
      await refreshAfterChange(page);
      return null;
    },
  });
}

function addMemberForm(page, team, opener) {
  const userId = textInput('', { autocomplete: 'off', spellcheck: 'false', required: true });
  const role = h('select', {}, h('option', { value: 'user' }, 'user'), h('option', { value: 'admin' }, 'admin'));
  const budget = numberInput('', true);
  openForm({
    title: `Add member to ${teamName(team)}`,
    content: h('div', { class: 'grid' },
      field('User id', userId, 'A user not stored yet is made.'),
      field('Role', role),
      field('Budget in team', budget, 'Dollars; empty for none.')),
    submitLabel: 'Add member',
    controls: { 'member.user_id': userId, 'member.user_email': userId, 'member.role': role, member: userId, max_budget_in_team: budget },
    opener,
    submit: async () => {
      const body = withoutNulls({ team_id: team.team_id, member: { user_id: text(userId), role: role.value },
        max_budget_in_team: number(budget) });
      await api.post('/team/member_add', body);
      replace(page.status, notice(`Added ${text(userId)} to ${teamName(team)} as ${role.value}.`));
      await refreshAfterChange(page);
      return null;
    },
  });
}

async function deleteTeam(page, team, keyCount, buttons) {
  const name = teamName(team);
  const confirmed = await confirmAction({
    title: 'Delete team?',
    message: `Team ${name} will be deleted with its ${keyCount} key${keyCount === 1 ? '' : 's'} and its memberships. This cannot be undone.`,
    confirmLabel: 'Delete',
    opener: buttons[buttons.length - 1],
  });
  if (!confirmed) return;
  const done = await runAction(buttons, page.status, () => api.post('/team/delete', { team_ids: [team.team_id] }), `Deleted team ${name}.`);
  if (done) {
    await refreshAfterChange(page);
    page.create.focus();
  }
}

/** The create or edit form; `team` is null to create one. */
function editTeam(page, team, opener) {
  const c = {
    team_id: team ? null : textInput('', { autocomplete: 'off', spellcheck: 'false' }),
    team_alias: textInput(team && team.team_alias, { autocomplete: 'off' }),
    models: textInput(team && team.models ? team.models.join(', ') : '', { autocomplete: 'off', spellcheck: 'false' }),
    max_budget: numberInput(team && team.max_budget, true),
    budget_duration: textInput(team && team.budget_duration, { autocomplete: 'off', spellcheck: 'false' }),
    rpm_limit: numberInput(team && team.rpm_limit),
    tpm_limit: numberInput(team && team.tpm_limit),
  };
  const routing = routerFields(team ? team.router_settings : null);
  const controls = { ...routing.controls };
  for (const [name, control] of Object.entries(c)) if (control) controls[name] = control;
  const content = h('div', {},
    h('div', { class: 'grid' },
      field('Team alias', c.team_alias, 'A name for the team.'),
      c.team_id ? field('Team id', c.team_id, 'Optional: generated when empty.') : null,
      field('Models', c.models, 'Comma separated model groups; empty for all.'),
      field('Max budget', c.max_budget, `Dollars per budget period, shared by the team's keys${team ? ` (spent ${dollars(team.spend)})` : ''}.`),
      field('Budget duration', c.budget_duration, team ? 'e.g. 30d; changing it starts a new period.' : 'e.g. 30d; empty: never resets.'),
      field('RPM limit', c.rpm_limit, 'Requests per minute, shared.'),
      field('TPM limit', c.tpm_limit, 'Tokens per minute, shared.')),
    routing.fieldset);
  openRecordForm('team', team ? teamName(team) : null, {
    content, controls, opener,
    submit: async () => {
      const settings = {
        team_alias: text(c.team_alias),
        models: list(c.models),
        max_budget: number(c.max_budget),
        rpm_limit: number(c.rpm_limit),
        tpm_limit: number(c.tpm_limit),
      };
      const router = routerSettings(routing, team ? team.router_settings : null);
      if (team) {
        const body = { team_id: team.team_id, ...settings };
        // router_settings is replaced whole, so it goes only when one of its fields changed.
        if (routerChanged(routing)) body.router_settings = router;
        // Giving budget_duration restarts the budget period, so it is sent only when it changed.
        const duration = text(c.budget_duration);
        if (duration !== (team.budget_duration || null)) body.budget_duration = duration;
        await api.post('/team/update', body);
        replace(page.status, notice(`Saved team ${teamName(team)}.`));
      } else {
        const body = withoutNulls({ ...settings, team_id: text(c.team_id), budget_duration: text(c.budget_duration) });
        if (Object.keys(router).length) body.router_settings = router;
        const created = await api.post('/team/new', body);
        replace(page.status, notice(`Created team ${teamName(created)}.`));
      }
      await refreshAfterChange(page);
      return null;
    },
  });
}

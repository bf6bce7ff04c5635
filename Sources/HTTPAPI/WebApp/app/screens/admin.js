// Administration: staff accounts and roles, the audit trail with its verification, the
// practice's settings, and its appointment types and rooms (changed, retired or taken out of
// service: never deleted).
//
// This screen puts up the tabs the signed-in person may open and shows one: staff accounts
// with the shared devices (admin-accounts.js, admin-devices.js), the audit trail
// (admin-audit.js), the practice's settings with its opening hours and closures
// (admin-practice.js, admin-hours.js, admin-closures.js), and the appointment types and rooms
// (admin-types.js, admin-rooms.js, their dialogs admin-dialog.js).

import { h, replace } from '../ui.js';
import { showUsers } from './admin-accounts.js';
import { showAudit } from './admin-audit.js';
import { showPractice } from './admin-practice.js';
import { loadTypes } from './admin-types.js';
import { loadRooms } from './admin-rooms.js';

export function render(container, { session, query }) {
  let alive = true;
  const tabs = [
    session.can('manageStaff') && ['users', 'Staff accounts'],
    session.can('readAudit') && ['audit', 'Audit trail'],
    ['practice', 'Practice settings'],
    session.can('managePractice') && ['setup', 'Types and rooms'],
  ].filter(Boolean);
  const tab = tabs.some(([key]) => key === query.tab) ? query.tab : tabs[0][0];
  const body = h('div', { class: 'admin-body' });
  replace(container, h('section', { class: 'screen admin', 'aria-labelledby': 'admin-title' },
    h('header', { class: 'screen-header' }, h('h1', { id: 'admin-title' }, 'Administration')),
    h('nav', { class: 'segmented', 'aria-label': 'Administration sections' }, tabs.map(([key, label]) =>
      h('a', { href: `#/admin?tab=${key}`, 'aria-current': key === tab ? 'page' : null }, label))),
    body));

  /** What the tabs share: the signed-in session, the box they are shown in, the staff accounts
   *  by id (loaded by the accounts tab, read by the audit trail) and whether the screen is
   *  still shown. */
  const ctx = { session, body, users: new Map(), alive: () => alive };

  // MARK: - Appointment types and rooms

  function showSetup() {
    const typesBox = h('div', {}, h('p', { class: 'muted' }, 'Loading…'));
    const roomsBox = h('div', {}, h('p', { class: 'muted' }, 'Loading…'));
    replace(body,
      h('section', { class: 'panel glass setup-types', 'aria-labelledby': 'types-title' }, h('h2', { id: 'types-title' }, 'Appointment types'), typesBox),
      h('section', { class: 'panel glass setup-rooms', 'aria-labelledby': 'rooms-title' }, h('h2', { id: 'rooms-title' }, 'Rooms'), roomsBox));
    loadTypes(ctx, typesBox);
    loadRooms(ctx, roomsBox);
  }

  if (tab === 'users') showUsers(ctx); else if (tab === 'audit') showAudit(ctx); else if (tab === 'setup') showSetup(); else showPractice(ctx);
  return () => { alive = false; };
}

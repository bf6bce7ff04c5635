// The modal dialog of Admin → Types and rooms: a title, and the Cancel button that closes it;
// the dialog is removed when closed and the focus goes back to the button that opened it.

import { h, uid } from '../ui.js';

/** A small modal dialog titled `title` (`kind`: its class), appended to the page; removed when
 *  closed, the focus back on `opener`. Returns {dialog, close(), cancel (its Cancel button)}. */
export function dialogWith(title, opener, kind) {
  const titleId = uid('setup-title');
  const dialog = h('dialog', { class: ['dialog', 'glass', 'screen-dialog', 'setup-dialog', kind], 'aria-labelledby': titleId });
  const close = () => { if (dialog.open) dialog.close(); dialog.remove(); };
  dialog.addEventListener('close', () => { dialog.remove(); if (opener?.isConnected) opener.focus(); });
  dialog.append(h('h2', { id: titleId }, title));
  document.body.append(dialog);
  return { dialog, close, cancel: h('button', { type: 'button', class: 'button quiet', on: { click: close } }, 'Cancel') };
}

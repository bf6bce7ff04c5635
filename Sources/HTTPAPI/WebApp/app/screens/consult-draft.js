// A consultation's draft: what was typed, kept in this device's storage for one account,
// patient and appointment, read back when the consultation is opened again and removed once
// the visit is saved or the draft discarded. Drafts untouched for a week are dropped (the
// device may be shared). Storage that is full, refused or missing keeps nothing, and the form
// still works.

const DRAFT_PREFIX = 'vetnet.consult-draft';
/** Drafts untouched this long are dropped (this device may be shared). */
const DRAFT_DAYS = 7;

/** The draft's key: one per account, patient and appointment (or none). */
export function draftKey(userId, patientId, appointmentId) {
  return `${DRAFT_PREFIX}.${userId}.${patientId}.${appointmentId || 'none'}`;
}

/** Removes the drafts on this device older than DRAFT_DAYS. */
export function pruneDrafts(now = Date.now()) {
  try {
    for (let i = localStorage.length - 1; i >= 0; i -= 1) {
      const name = localStorage.key(i);
      if (!name?.startsWith(`${DRAFT_PREFIX}.`)) continue;
      let savedAt = NaN;
      try { savedAt = Date.parse(JSON.parse(localStorage.getItem(name))?.savedAt); } catch { /* unreadable: dropped */ }
      if (!(now - savedAt < DRAFT_DAYS * 86400000)) localStorage.removeItem(name);
    }
  } catch { /* no storage: nothing kept */ }
}

/** The draft kept under `key`, or null. */
export function readDraft(key) {
  try { return JSON.parse(localStorage.getItem(key) || 'null'); } catch { return null; }
}

/** Keeps `values` under `key` with the time they were kept (`savedAt`). */
export function keepDraft(key, values) {
  try { localStorage.setItem(key, JSON.stringify({ savedAt: new Date().toISOString(), ...values })); } catch { /* storage full or refused: the form still works */ }
}

/** Removes the draft kept under `key`. */
export function clearDraft(key) {
  try { localStorage.removeItem(key); } catch { /* nothing kept */ }
}

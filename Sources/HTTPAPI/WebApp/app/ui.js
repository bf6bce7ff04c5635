// Small DOM and formatting helpers shared by every screen. No framework: elements are built
// with h(), and the Content-Security-Policy forbids inline styles and scripts, so styles are
// classes from styles.css and the few computed positions go through the CSSOM (el.style).

import * as catalogue from './catalogue.js';

/** Creates an element. attrs: class, text, on: {event: fn}, style: {prop: value}, dataset: {},
 *  booleans (true sets the attribute, false/null skips it), everything else as an attribute. */
export function h(tag, attrs = {}, ...children) {
  const svg = tag.startsWith('svg:');
  const el = svg ? document.createElementNS('http://www.w3.org/2000/svg', tag.slice(4)) : document.createElement(tag);
  let initialValue;
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'class') el.setAttribute('class', Array.isArray(value) ? value.filter(Boolean).join(' ') : value);
    else if (key === 'text') el.textContent = value;
    else if (key === 'on') for (const [event, fn] of Object.entries(value)) el.addEventListener(event, fn);
    else if (key === 'style') for (const [prop, v] of Object.entries(value)) el.style.setProperty(prop, v);
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key === 'value' && !svg) initialValue = value; // after the children: a <select> needs its options first
    else if (key === 'checked' || key === 'selected') el[key] = Boolean(value);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  if (initialValue !== undefined) el.value = initialValue;
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces an element's content. */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

let idCounter = 0;
/** A document-unique id with a readable prefix. */
export function uid(prefix = 'id') { idCounter += 1; return `${prefix}-${idCounter}`; }

/** Speaks a message to screen readers through the page's live regions. */
export function announce(message, { assertive = false } = {}) {
  const region = document.getElementById(assertive ? 'announcer-assertive' : 'announcer-polite');
  if (!region) return;
  region.textContent = '';
  // A new text node after a tick, so the same message twice is announced twice.
  setTimeout(() => { region.textContent = message; }, 30);
}

/** A short visible confirmation that also reaches screen readers. */
export function toast(message, kind = 'info') {
  const box = document.getElementById('toasts');
  if (!box) return;
  const item = h('div', { class: ['toast', 'glass', `toast-${kind}`] }, message);
  box.append(item);
  setTimeout(() => item.remove(), 5000);
}

/** Shows a button as busy while `work` runs (a slow action shows progress). */
export async function busy(button, work, label = 'Working…') {
  const original = button.textContent;
  button.disabled = true;
  button.setAttribute('aria-busy', 'true');
  button.textContent = label;
  try { return await work(); } finally {
    button.disabled = false;
    button.removeAttribute('aria-busy');
    button.textContent = original;
  }
}

/** Calls fn once the calls have paused for `ms`. */
export function debounce(fn, ms) {
  let timer = null;
  const debounced = (...args) => { clearTimeout(timer); timer = setTimeout(() => fn(...args), ms); };
  debounced.cancel = () => clearTimeout(timer);
  return debounced;
}

// MARK: - Form fields and the API's field errors
// (Sending a form and showing the API's answer with these is forms.js's.)

/** A labelled control: returns the wrapper; the control gets an id, name and data-field (the
 *  API's name for it, so a problem document's `errors[].field` finds it). */
export function field(label, control, { hint, unit, fieldName, wide = false } = {}) {
  const id = control.id || uid('f');
  control.id = id;
  if (fieldName) control.dataset.field = fieldName;
  const hintId = hint ? `${id}-hint` : null;
  if (hintId) control.setAttribute('aria-describedby', hintId);
  const row = unit ? h('div', { class: 'with-unit' }, control, typeof unit === 'string' ? h('span', { class: 'unit', 'aria-hidden': 'true' }, unit) : unit) : control;
  return h('div', { class: ['field', wide && 'field-wide'] },
    h('label', { for: id }, label),
    row,
    hint ? h('p', { class: 'hint', id: hintId }, hint) : null);
}

/** A <select> from [value, label] pairs; an empty first option when `blank` is given. */
export function select(options, { blank, value, ...attrs } = {}) {
  const el = h('select', attrs,
    blank !== undefined ? h('option', { value: '' }, blank) : null,
    options.map(([v, label]) => h('option', { value: v }, label)));
  if (value !== undefined) el.value = value;
  return el;
}

/** Removes every field error shown inside `root`. */
export function clearErrors(root) {
  root.querySelectorAll('.field-error').forEach((el) => el.remove());
  root.querySelectorAll('[aria-invalid="true"]').forEach((el) => {
    el.removeAttribute('aria-invalid');
    const ids = (el.getAttribute('aria-describedby') || '').split(' ').filter((x) => x && !x.endsWith('-error'));
    if (ids.length) el.setAttribute('aria-describedby', ids.join(' ')); else el.removeAttribute('aria-describedby');
  });
  root.querySelectorAll('.form-errors').forEach((el) => { el.hidden = true; el.replaceChildren(); });
}

/** Shows each API error next to the control it names (the control whose data-field is the
 *  longest prefix of the error's field, with `prefix` removed first); the rest go to the
 *  form's summary. Returns the number shown next to fields. */
export function showErrors(root, errors, { prefix = '', summary } = {}) {
  clearErrors(root);
  const controls = [...root.querySelectorAll('[data-field]')];
  const leftover = [];
  let placed = 0;
  for (const error of errors || []) {
    const name = error.field.startsWith(prefix) ? error.field.slice(prefix.length) : error.field;
    const match = controls
      .filter((c) => name === c.dataset.field || name.startsWith(`${c.dataset.field}.`) || name.startsWith(`${c.dataset.field}[`))
      .sort((a, b) => b.dataset.field.length - a.dataset.field.length)[0];
    if (!match) { leftover.push(error); continue; }
    const errorId = `${match.id}-error`;
    let box = document.getElementById(errorId);
    if (!box) {
      box = h('p', { class: 'field-error', id: errorId, dataset: { for: match.dataset.field } });
      (match.closest('.field') || match.parentElement).append(box);
    }
    box.textContent = error.message;
    match.setAttribute('aria-invalid', 'true');
    const described = new Set((match.getAttribute('aria-describedby') || '').split(' ').filter(Boolean));
    described.add(errorId);
    match.setAttribute('aria-describedby', [...described].join(' '));
    placed += 1;
  }
  const box = summary || root.querySelector('.form-errors');
  if (box && leftover.length) {
    box.hidden = false;
    replace(box, h('ul', {}, leftover.map((e) => h('li', {}, e.field ? `${e.field}: ${e.message}` : e.message))));
  }
  return placed;
}

/** A problem's text for people: its detail, else its title. */
export function problemText(error) {
  if (!error) return 'Something went wrong.';
  return error.detail || error.message || 'Something went wrong.';
}

/** An inline message box (error or note) that screen readers hear once. */
export function notice(text, kind = 'error') {
  return h('p', { class: ['notice', `notice-${kind}`], role: kind === 'error' ? 'alert' : 'status' }, text);
}

// MARK: - Triage levels (VTL), in the catalogue's words

/** A level's colour, as the suffix of its classes; 'none' for a level the catalogue does not
 *  give (it could not be loaded), which is then shown by its number alone. */
export function levelColour(level) { return catalogue.level(level)?.colour || 'none'; }

/** A level's colour in words ("Orange"), or "Level 2" without the catalogue. */
export function levelLabel(level) {
  const info = catalogue.level(level);
  return info ? words(info.colour) : `Level ${level}`;
}

/** A level's colour and name ("Orange · Very urgent"), or "Level 2" without the catalogue. */
export function levelWords(level) {
  const info = catalogue.level(level);
  return info ? `${words(info.colour)} · ${words(info.name)}` : `Level ${level}`;
}

/** A level's maximum wait in minutes; null when the catalogue does not give it. */
export function maxWait(level) { return catalogue.level(level)?.maxWaitMinutes ?? null; }

/** A level badge: colour and words, never colour alone (the number alone without the catalogue). */
export function levelBadge(level, { large = false } = {}) {
  const known = catalogue.level(level) !== null;
  const number = h('span', { class: 'level-number' }, String(level));
  return h('span', { class: ['level', `level-${levelColour(level)}`, large && 'level-large'] },
    known ? [number, ` ${levelWords(level)}`] : ['Level ', number]);
}

/** Words for an id such as `male_neutered` or `emergency_critical_care`. */
export function words(id) {
  if (!id) return '';
  const text = String(id).replace(/([a-z])([A-Z])/g, '$1 $2').replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// MARK: - Time in the practice's zone

let practiceZone = 'UTC';
/** Sets the practice's IANA time zone; every time shown is in it, whatever the device says. */
export function setTimeZone(zone) { practiceZone = zone || 'UTC'; }
export function timeZone() { return practiceZone; }

const formatters = new Map();
function formatter(options) {
  const key = JSON.stringify(options) + practiceZone;
  if (!formatters.has(key)) formatters.set(key, new Intl.DateTimeFormat('en-GB', { timeZone: practiceZone, ...options }));
  return formatters.get(key);
}

/** 09:30 */
export function time(value) { return value ? formatter({ hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(value)) : ''; }
/** Mon 23 Nov 2026 */
export function date(value) { return value ? formatter({ weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' }).format(new Date(value)) : ''; }
/** 23 Nov 2026, 09:30 */
export function dateTime(value) { return value ? `${formatter({ day: 'numeric', month: 'short', year: 'numeric' }).format(new Date(value))}, ${time(value)}` : ''; }
/** A yyyy-MM-dd date (no time) as words, without shifting it through a time zone. */
export function plainDate(text) {
  if (!text) return '';
  const [y, m, d] = text.split('-').map(Number);
  return new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric' }).format(new Date(Date.UTC(y, m - 1, d)));
}

/** The calendar parts of an instant in the practice's zone. */
export function zonedParts(value) {
  const parts = {};
  for (const p of formatter({ year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23', weekday: 'short' })
    .formatToParts(new Date(value))) parts[p.type] = p.value;
  const weekdays = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };
  return { year: +parts.year, month: +parts.month, day: +parts.day, hour: +parts.hour, minute: +parts.minute, second: +parts.second, weekday: weekdays[parts.weekday] };
}

/** Today's date (yyyy-MM-dd) in the practice's zone. */
export function today() { return isoDate(zonedParts(Date.now())); }
export function isoDate({ year, month, day }) { return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`; }

/** The instant of a local date and time in the practice's zone. */
export function zonedInstant(isoDay, minutes = 0) {
  const [y, m, d] = isoDay.split('-').map(Number);
  const guess = Date.UTC(y, m - 1, d, Math.floor(minutes / 60), minutes % 60);
  const offset = (t) => {
    const p = zonedParts(t);
    return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - t;
  };
  let instant = guess - offset(guess);
  const second = guess - offset(instant);
  if (second !== instant) instant = second;
  return new Date(instant);
}

/** yyyy-MM-dd shifted by whole days. */
export function addDays(isoDay, days) {
  const [y, m, d] = isoDay.split('-').map(Number);
  const t = new Date(Date.UTC(y, m - 1, d + days));
  return isoDate({ year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() });
}

/** ISO weekday (1 = Monday) of a yyyy-MM-dd date. */
export function weekday(isoDay) {
  const [y, m, d] = isoDay.split('-').map(Number);
  return ((new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7) + 1;
}

/** "HH:mm" → minutes after midnight. */
export function minutesOf(hhmm) { const [h, m] = String(hhmm).split(':').map(Number); return h * 60 + (m || 0); }
/** minutes after midnight → "HH:mm". */
export function hhmm(minutes) { return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`; }

/** An RFC 3339 instant without milliseconds, as the API writes them. */
export function rfc3339(dateValue) { return new Date(dateValue).toISOString().replace(/\.\d{3}Z$/, 'Z'); }

// MARK: - Number fields that say why a key did nothing

const NUMBER_KEYS = /^[0-9.,eE+-]$/;

function numberNote(input, message, kind = 'bad') {
  if (!input.id) input.id = uid('n');
  const noteId = `${input.id}-error`;
  let box = document.getElementById(noteId);
  if (!message) {
    if (box?.dataset.note === 'number' && (kind === 'any' || box.dataset.kind === kind)) {
      box.remove();
      const ids = (input.getAttribute('aria-describedby') || '').split(' ').filter((x) => x && x !== noteId);
      if (ids.length) input.setAttribute('aria-describedby', ids.join(' ')); else input.removeAttribute('aria-describedby');
      if (input.getAttribute('aria-invalid') === 'true' && !input.validity.badInput) input.removeAttribute('aria-invalid');
    }
    return;
  }
  if (!box) {
    box = h('p', { class: 'field-error', id: noteId, role: 'status', dataset: { for: input.dataset.field || '', note: 'number' } });
    (input.closest('.field') || input.parentElement).append(box);
  } else if (box.dataset.note !== 'number') {
    return; // the API's own message for this field stays
  }
  box.textContent = message;
  box.dataset.kind = kind;
  const described = new Set((input.getAttribute('aria-describedby') || '').split(' ').filter(Boolean));
  described.add(noteId);
  input.setAttribute('aria-describedby', [...described].join(' '));
}

/** Number fields drop letters without a word (the browser refuses them) or hold text that is
 *  no number (validity.badInput, and an empty value for scripts): either way a message next
 *  to the field says so, until a number is typed. */
export function watchNumberFields(root = document) {
  root.addEventListener('keydown', (event) => {
    const input = event.target;
    if (!(input instanceof HTMLInputElement) || input.type !== 'number') return;
    if (event.ctrlKey || event.metaKey || event.altKey || event.key.length !== 1 || NUMBER_KEYS.test(event.key)) return;
    numberNote(input, `Numbers only: “${event.key === ' ' ? 'space' : event.key}” cannot be typed here.`, 'key');
  }, true);
  const check = (event) => {
    const input = event.target;
    if (!(input instanceof HTMLInputElement) || input.type !== 'number') return;
    if (input.validity.badInput) {
      numberNote(input, 'This is not a number: use digits, with a point for decimals (for example 38.5).');
      input.setAttribute('aria-invalid', 'true');
    } else numberNote(input, null, 'bad');
  };
  root.addEventListener('input', check, true);
  root.addEventListener('change', check, true);
  root.addEventListener('paste', (event) => {
    const input = event.target;
    if (!(input instanceof HTMLInputElement) || input.type !== 'number') return;
    const text = event.clipboardData?.getData('text') || '';
    if (text && !/^\s*[-+]?[0-9.,]*(e[-+]?[0-9]+)?\s*$/i.test(text)) numberNote(input, `Numbers only: “${text.slice(0, 20)}” cannot be pasted here.`, 'key');
  }, true);
  // A refused key's note lasts while the person is in the field.
  root.addEventListener('focusout', (event) => {
    if (event.target instanceof HTMLInputElement && event.target.type === 'number') numberNote(event.target, null, 'key');
  }, true);
}

// The triage catalogue, as the server keeps it (GET /api/v1/triage/catalogue): the VTL levels
// with their colours, names and maximum waits, the findings staff may assert by ABCDE letter,
// the words a case accepts for species, sex and grades, and the statuses and actions of
// appointments and of the ER board with their words. The app keeps no copy of these tables:
// they are loaded once per sign-in, before any screen renders, and read from here.

import * as api from './api.js';
import { words } from './ui.js';

/** The catalogue last loaded; null before loading or when it could not be loaded. */
let catalogue = null;

/** Loads the catalogue of the rules version in force. Resolves to whether it was loaded; a
 *  failure leaves it empty (the screens then show level numbers and say what is missing). */
export async function load() {
  try {
    catalogue = await api.get('/triage/catalogue');
  } catch {
    catalogue = null;
  }
  return catalogue !== null;
}

/** Whether the catalogue is at hand. */
export function loaded() { return catalogue !== null; }

/** The levels [{level, colour, name, maxWaitMinutes}], most urgent first. */
export function levels() { return catalogue?.levels || []; }

/** One level's entry, or null when the catalogue does not know it. */
export function level(number) { return levels().find((l) => l.level === number) || null; }

/** Whether a level is an emergency (the server's rule: the patient joins the ER board at once).
 *  Unknown without the catalogue: then nothing is treated as one. */
export function isEmergency(number) { return level(number)?.emergency === true; }

/** Whether lowering an assessment the engine put at this level needs the explicit confirmation. */
export function loweringNeedsConfirmation(number) { return level(number)?.loweringNeedsConfirmation === true; }

/** The sections of findings staff may assert [{letter?, title, items: [{id, label, level}]}]. */
export function findings() { return catalogue?.findings || []; }

/** The species a case accepts. */
export function species() { return catalogue?.species || []; }

/** The sexes a case accepts (the patient record's own words). */
export function sexes() { return catalogue?.sexes || []; }

/** The grades of distress and pain. */
export function grades() { return catalogue?.grades || []; }

/** The clinical services a case is routed to and a clinician's expertise names. */
export function specialties() { return catalogue?.specialties || []; }

/** The words staff read for an appointment's status (the status in words without the catalogue). */
export function appointmentStatusLabel(status) {
  return catalogue?.appointmentStatuses?.find((s) => s.status === status)?.label || words(status);
}

/** An appointment action's entry {action, label, resultingStatus, checksTheSchedule}, or null. */
export function appointmentAction(action) {
  return catalogue?.appointmentActions?.find((a) => a.action === action) || null;
}

/** The words of an appointment action's button. */
export function appointmentActionLabel(action) { return appointmentAction(action)?.label || words(action); }

/** Whether an offline device may keep the action to send later: it depends on the appointment
 *  alone, not on the rest of the schedule. Unknown without the catalogue: then it is not kept. */
export function queueableOffline(action) { return appointmentAction(action)?.checksTheSchedule === false; }

/** The words staff read for a place on the ER board. */
export function boardStatusLabel(status) {
  return catalogue?.boardStatuses?.find((s) => s.status === status)?.label || words(status);
}

/** Whether a board status keeps the patient on the board (waiting or in treatment). */
export function onBoard(status) { return catalogue?.boardStatuses?.find((s) => s.status === status)?.onBoard === true; }

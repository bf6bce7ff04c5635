#!/usr/bin/env python3
"""End-to-end tests of the staff web app without a connection, in a real headless browser.

Starts `vetnet serve --demo` on a private data directory and a free loopback port, drives
Debian's chromium through chromedriver (Selenium), and takes the server away in two ways: by
terminating it (then starting it again on the same data directory and port), and by Chromium's
network emulation. It checks what staff would notice:

- with the server killed: a reload opens the app; the ER board, the schedule (today's or
  tomorrow's), a recently opened record, home, clinicians and intake show their last data with
  its age ("Offline — data from 14:02, 6 min ago"), a screen whose data is not kept (analytics)
  says it is offline; the patient search finds a patient by name and by record number;
- with the server killed: a weight, a note and an ER-board status change are made and shown as
  waiting to send; the tab is closed and another opened (still offline, on the same session);
  the server is started again: each change lands exactly once (through the API and the audit
  trail, as the administrator), in the order it was made;
- a replay that conflicts (another session changed the same owner meanwhile) shows both
  versions and, applied to the current version, keeps both changes;
- a board move queued offline that another session made meanwhile counts as landed (409 for a
  resource already in the target state asks no decision);
- offline, an appointment's check-in waits and lands; a move is refused with the reason (it
  needs the server's check for clashes);
- an offline intake given green by hand that the engine grades orange raises an alert
  (role="alert") with both levels once sent;
- axe-core: no serious or critical violation with the offline banner, the outbox's conflict
  and the manual triage on screen;
- a new arrival triaged by hand offline (yellow; the engine says orange): its owner, patient and
  assessment land once each, in order, and the alert is raised;
- a new owner and patient registered offline land once each, the patient with the owner's id;
- a server with changed app files: the app starts on the new version at the next start (the
  old version's cache deleted, none of its files served);
- signing out clears the device: no copy of the practice's data in IndexedDB, no patient's name
  in any IndexedDB value or Cache API entry, no API answer in the Cache API.

One line per check and a summary; exit status 0 only when every check passed.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.error
import urllib.parse
import urllib.request
from datetime import datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

from axe_selenium_python import Axe
from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_browser_tests import Client, Server as BrowserServer  # noqa: E402  (the browser checks' server and API client)

ROOT = Path(__file__).resolve().parents[2]
ADMIN = "fiona.campbell@riverside-vets.example"
VET = "amelia.hart@riverside-vets.example"
BANNER = re.compile(r"Offline — data from (?:\w{3} \d{1,2} \w{3} \d{4} )?(\d\d):(\d\d), (less than a minute|\d+ min|\d+ h \d+ min) ago")


# --------------------------------------------------------------------------------------------
# The server

class Server(BrowserServer):
    """`vetnet serve --demo` on a temporary store (no seeded past); `kill()` terminates it and
    `start()` brings it back on the same store and port."""

    def __init__(self, binary: Path, log_dir: Path) -> None:
        super().__init__(binary, log_dir, prefix="vetnet-offline-")

    def start(self, timeout: float = 60) -> None:
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self.serve(open(self.log_dir / "server.stdout.log", "ab"), open(self.log_dir / "server.stderr.log", "ab"), timeout)

    def kill(self) -> None:
        """Terminates the server (its store stays)."""
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.process = None

    def stop(self) -> None:
        self.kill()
        shutil.rmtree(self.data_dir, ignore_errors=True)


# --------------------------------------------------------------------------------------------
# The browser

def browser(width: int, height: int) -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    binary = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if binary:
        options.binary_location = binary
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--no-first-run",
                 "--disable-extensions", "--disable-background-networking", "--lang=en-GB", f"--window-size={width},{height}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver_path = shutil.which("chromedriver")
    service = Service(executable_path=driver_path) if driver_path else Service()
    driver = webdriver.Chrome(service=service, options=options)
    driver.set_script_timeout(30)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    return driver


def wait(driver, condition, timeout: float = 10, message: str = ""):
    return WebDriverWait(driver, timeout, poll_frequency=0.1, ignored_exceptions=[StaleElementReferenceException]).until(condition, message)


def visible(driver, css: str, timeout: float = 10):
    return wait(driver, EC.visibility_of_element_located((By.CSS_SELECTOR, css)), timeout, f"nothing visible matches {css}")


def clickable(driver, css: str, timeout: float = 10):
    return wait(driver, EC.element_to_be_clickable((By.CSS_SELECTOR, css)), timeout, f"nothing clickable matches {css}")


def button_with_text(driver, text: str, timeout: float = 10, within=None):
    scope = within or driver

    def find(_):
        for element in scope.find_elements(By.CSS_SELECTOR, "button, a.button"):
            if element.is_displayed() and element.is_enabled() and text in element.text:
                return element
        return False
    return wait(driver, find, timeout, f"no button reading {text!r}")


def field_input(driver, label: str, within=None, timeout: float = 10):
    """The control of the field labelled `label`, once the screen has drawn it."""
    def find(_):
        scope = within or driver
        for element in scope.find_elements(By.CSS_SELECTOR, "label"):
            if element.text.strip() == label:
                return driver.find_element(By.ID, element.get_attribute("for"))
        return False
    return wait(driver, find, timeout, f"no field labelled {label!r}")


def type_into(element, text: str) -> None:
    driver = element.parent
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    WebDriverWait(driver, 5, poll_frequency=0.05).until(lambda _: element.is_displayed() and element.is_enabled(), "the field never became ready")
    element.clear()
    element.send_keys(text)


def network(driver, offline: bool) -> None:
    """Chromium's network emulation: the page (and its worker) without a network, or with it."""
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})


def sign_in(driver, server: Server, email: str) -> None:
    driver.get(server.url + "/")
    type_into(visible(driver, "input[name=email]", 15), email)
    type_into(driver.find_element(By.CSS_SELECTOR, "input[name=password]"), server.password)
    driver.find_element(By.CSS_SELECTOR, ".sign-in-form button[type=submit]").click()
    visible(driver, "h1#home-title", 20)


def go(driver, server: Server, hash_: str, ready_css: str, timeout: float = 15):
    driver.get(f"{server.url}/{hash_}")
    return visible(driver, ready_css, timeout)


# What the device holds: the names in each IndexedDB store and every value as text (the bytes
# of encrypted values as Latin-1), with the Cache API's addresses and bodies.
DEVICE_SCRIPT = """
const done = arguments[arguments.length - 1];
(async () => {
  const text = (v) => {
    if (v instanceof ArrayBuffer) return new TextDecoder('latin1').decode(new Uint8Array(v));
    if (ArrayBuffer.isView(v)) return new TextDecoder('latin1').decode(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
    if (v && typeof v === 'object') return Object.entries(v).map(([k, x]) => k + ':' + text(x)).join('|');
    return String(v);
  };
  const out = { databases: [], caches: [] };
  for (const info of (await indexedDB.databases())) {
    const db = await new Promise((ok, fail) => { const r = indexedDB.open(info.name); r.onsuccess = () => ok(r.result); r.onerror = () => fail(r.error); });
    const stores = {};
    for (const name of db.objectStoreNames) {
      stores[name] = await new Promise((ok) => {
        const rows = [];
        const cursor = db.transaction(name).objectStore(name).openCursor();
        cursor.onsuccess = () => { const c = cursor.result; if (c) { rows.push([String(c.key), text(c.value)]); c.continue(); } else ok(rows); };
        cursor.onerror = () => ok(rows);
      });
    }
    db.close();
    out.databases.push({ name: info.name, stores });
  }
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      const response = await cache.match(request);
      out.caches.push({ cache: name, url: request.url, body: await response.text() });
    }
  }
  return out;
})().then(done, (e) => done({ error: String(e) }));
"""


def device(driver) -> dict:
    answer = driver.execute_async_script(DEVICE_SCRIPT)
    if "error" in answer:
        raise AssertionError(f"reading the device: {answer['error']}")
    return answer


def triage_alerts(driver) -> list[dict]:
    """The triage alerts on screen (read at once: the region may be redrawn at any moment)."""
    return driver.execute_script("""return [...document.querySelectorAll('#triage-results [role=alert]')]
      .filter((e) => e.offsetParent !== null).map((e) => ({engine: e.dataset.engine, manual: e.dataset.manual, text: e.textContent}));""")


def kept_names(driver) -> list[str]:
    for db in device(driver)["databases"]:
        if db["name"] == "vetnet-offline":
            return [key for key, _ in db["stores"].get("data", [])]
    return []


# --------------------------------------------------------------------------------------------
# The checks

class Checks:
    def __init__(self, server: Server, artifacts: Path) -> None:
        self.server = server
        self.artifacts = artifacts
        self.results: list[tuple[str, bool, str]] = []
        self.axe: dict = {}
        self.written: list[str] = []
        self.zone = ZoneInfo("Europe/London")

    def run(self, name: str, check) -> bool:
        started = time.monotonic()
        try:
            # Each check starts with the network on and no dialog left open by the one before.
            network(self.driver, offline=False)
            self.driver.execute_script("document.querySelectorAll('dialog[open]').forEach((d) => d.close())")
            detail = check()
            self.results.append((name, True, detail or ""))
            print(f"PASS  {name} ({time.monotonic() - started:.1f} s): {detail}", flush=True)
            return True
        except Exception as error:  # noqa: BLE001 - every failure is reported, then the next check runs
            self.results.append((name, False, f"{type(error).__name__}: {error}"))
            print(f"FAIL  {name} ({time.monotonic() - started:.1f} s): {type(error).__name__}: {error}", flush=True)
            traceback.print_exc(limit=3)
            try:
                self.driver.save_screenshot(str(self.artifacts / f"{name}.png"))
            except Exception:  # noqa: BLE001
                pass
            return False

    # MARK: preparing

    def prepare(self) -> None:
        self.admin = Client(self.server, ADMIN)
        self.vet = Client(self.server, VET)
        self.zone = ZoneInfo(self.vet.ok("GET", "/api/v1/me")["practice"].get("timeZone") or "Europe/London")
        dogs = self.vet.ok("GET", "/api/v1/patients?species=dog&limit=8&status=active")["items"]
        cats = self.vet.ok("GET", "/api/v1/patients?species=cat&limit=8&status=active")["items"]
        self.dog = dogs[3]["patient"]
        self.second_dog = dogs[5]["patient"]
        self.cat = cats[2]["patient"]
        # An arrival on the ER board (orange: 40.7 °C).
        assessment = self.vet.ok("POST", "/api/v1/triage/assessments", {"patientId": self.dog["id"], "case": {
            "species": "dog", "vitals": {"temperature": {"value": 40.7, "unit": "C"}}, "complaint": "panting after a run in the heat"}})
        assert assessment["level"] == 2, f"orange arrival: {assessment['level']}"
        # A booking today (or, after closing time, tomorrow) for the schedule.
        # The first type someone can see the cat for today or tomorrow: a general type first (a
        # specialist's type may have no clinician working in the window, e.g. Friday evening).
        types = self.vet.ok("GET", "/api/v1/appointment-types")["items"]
        types.sort(key=lambda t: (t.get("requiredSpecialty") is not None, t.get("retiredAt") is not None, t["name"]))
        now = datetime.now(timezone.utc)
        local_midnight = datetime.now(self.zone).replace(hour=0, minute=0, second=0, microsecond=0)
        window_end = (local_midnight + timedelta(days=2)).astimezone(timezone.utc)
        def first_free() -> tuple[dict | None, list]:
            for candidate in types:
                if candidate.get("retiredAt") or "cat" not in (candidate.get("species") or ["cat"]):
                    continue
                found = self.vet.ok("GET", f"/api/v1/appointments/slots?from={stamp(now + timedelta(minutes=10))}&to={stamp(window_end)}"
                                           f"&appointmentTypeId={candidate['id']}&species=cat&limit=200")["items"]
                if found:
                    return candidate, found
            return None, []
        def day_of(slot: dict) -> str:
            return datetime.fromisoformat(slot["start"].replace("Z", "+00:00")).astimezone(self.zone).date().isoformat()
        def room_for_two(found: list) -> bool:
            """Whether the first slot's day has another one clear of it (the second booking's)."""
            return bool(found) and any(day_of(s) == day_of(found[0]) and s["start"] >= found[0]["end"] for s in found)
        kind, slots = first_free()
        if not room_for_two(slots):
            # A weekend, or the end of a day (the demo practice closes at Saturday noon): open
            # the practice all day today and tomorrow, and give one clinician an extra session
            # on both days.
            self.open_today_and_tomorrow(local_midnight)
            kind, slots = first_free()
        assert slots, "a free slot today or tomorrow for some appointment type"
        slot = slots[0]
        self.appointment = self.vet.ok("POST", "/api/v1/appointments", {"patientId": self.cat["id"], "clinicianId": slot["clinicianId"],
                                                                      "appointmentTypeId": kind["id"], "start": slot["start"]},
                                       headers={"Idempotency-Key": secrets.token_hex(8)})
        self.appointment_day = datetime.fromisoformat(slot["start"].replace("Z", "+00:00")).astimezone(self.zone).date().isoformat()
        # A second one on the same day, to be cancelled offline (enough slots asked for that some
        # on that day are clear of the first: several clinicians share each start time).
        same_day = [s for s in self.vet.ok("GET", f"/api/v1/appointments/slots?from={stamp(now + timedelta(minutes=10))}&to={stamp(window_end)}"
                                                  f"&appointmentTypeId={kind['id']}&species=cat&limit=200")["items"]
                    if datetime.fromisoformat(s["start"].replace("Z", "+00:00")).astimezone(self.zone).date().isoformat() == self.appointment_day
                    and (s["start"] >= self.appointment["end"] or s["end"] <= self.appointment["start"])]
        assert same_day, "a second free slot on the appointment's day"
        self.second = self.vet.ok("POST", "/api/v1/appointments", {"patientId": self.cat["id"], "clinicianId": same_day[0]["clinicianId"],
                                                                 "appointmentTypeId": kind["id"], "start": same_day[0]["start"]},
                                  headers={"Idempotency-Key": secrets.token_hex(8)})

    def open_today_and_tomorrow(self, local_midnight: datetime) -> None:
        """As the administrator: every day open 00:00–24:00, and the first clinician who is no
        specialist working all of today and tomorrow (extra sessions beside their week)."""
        self.admin.ok("PATCH", "/api/v1/practice", {"openingHours": [
            {"weekday": day, "opens": "00:00", "closes": "24:00"} for day in range(1, 8)]})
        clinicians = self.admin.ok("GET", "/api/v1/specialists")["items"]
        general = next(c for c in clinicians if not c.get("retiredAt") and "cat" in (c.get("species") or []))
        availability = self.admin.ok("GET", f"/api/v1/specialists/{general['id']}/availability")
        days = [(local_midnight + timedelta(days=offset)).date().isoformat() for offset in (0, 1)]
        availability["extraSessions"] = (availability.get("extraSessions") or []) + [
            {"date": day, "startMinute": 0, "endMinute": 1440} for day in days]
        self.admin.ok("PUT", f"/api/v1/specialists/{general['id']}/availability",
                      {key: availability[key] for key in ("weekly", "breaks", "timeOff", "extraSessions", "maxBookedMinutesPerDay")
                       if key in availability})

    def banner_age(self, driver, read_after: float) -> str:
        """The offline banner's words, checked to name a time no earlier than the data was read
        and no later than now, and an age that agrees with it."""
        banner = visible(driver, "#offline-banner", 15)
        text = banner.text
        match = BANNER.search(text)
        assert match, f"the banner says how old the data is: {text!r}"
        shown = datetime.now(self.zone).replace(hour=int(match.group(1)), minute=int(match.group(2)), second=0, microsecond=0)
        earliest = datetime.fromtimestamp(read_after, self.zone).replace(second=0, microsecond=0)
        assert earliest - timedelta(minutes=1) <= shown <= datetime.now(self.zone), f"the time shown ({match.group(1)}:{match.group(2)}) is when the data was read"
        return text

    # MARK: 1. starting offline

    def offline_start(self) -> str:
        driver = self.driver
        sign_in(driver, self.server, VET)
        self.read_from = time.time() - 60
        go(driver, self.server, "#/er", f".board-card[data-patient='{self.dog['id']}']")
        go(driver, self.server, f"#/schedule?date={self.appointment_day}", f".appointment[data-appointment='{self.appointment['id']}']", 20)
        go(driver, self.server, f"#/patients/{self.dog['id']}", ".record-weight h2")
        go(driver, self.server, f"#/patients/{self.cat['id']}", ".owner-card")
        wait(driver, lambda d: {"directory", "schedule-window", "feed-position"} <= set(kept_names(d)), 30,
             "the device holds the directory, today's and tomorrow's schedule and the feed position")
        self.server.kill()
        # A reload without the server: the app, the board with its patient, and the data's age.
        driver.get(f"{self.server.url}/#/er")
        visible(driver, "h1#er-title", 20)
        card = visible(driver, f".board-card[data-patient='{self.dog['id']}']", 15)
        board_banner = self.banner_age(driver, self.read_from)
        assert self.dog["name"] in card.text, card.text
        self.axe_check("offline-er-board")
        go(driver, self.server, f"#/schedule?date={self.appointment_day}", "h1#schedule-title", 20)
        visible(driver, f".appointment[data-appointment='{self.appointment['id']}']", 15)
        self.banner_age(driver, self.read_from)
        go(driver, self.server, f"#/patients/{self.dog['id']}", ".record-weight h2", 20)
        wait(driver, lambda d: self.dog["name"] in d.find_element(By.CSS_SELECTOR, "h1").text, 15, "the record's patient")
        record_banner = self.banner_age(driver, self.read_from)
        # Every screen says it is offline; those whose data the device keeps say how old it is.
        for hash_, title in (("#/home", "home-title"), ("#/clinicians", None), ("#/intake", "intake-title")):
            go(driver, self.server, hash_, f"h1#{title}" if title else "main h1", 20)
            self.banner_age(driver, self.read_from)
        go(driver, self.server, "#/analytics", "main h1", 20)
        assert visible(driver, "#offline-banner").text.startswith("Offline"), "the analytics screen says it is offline"
        # The directory: by name, then by record number.
        go(driver, self.server, "#/patients", "h1#patients-title", 20)
        search = field_input(driver, "Search")
        found = []
        for text in (self.second_dog["name"], self.second_dog["medicalRecordNumber"]):
            type_into(search, text)
            search.submit()
            wait(driver, lambda d: any(self.second_dog["medicalRecordNumber"] in e.text for e in d.find_elements(By.CSS_SELECTOR, ".patient-list li")), 10,
                 f"the search for {text!r} finds {self.second_dog['name']}")
            found.append(text)
        return f"board: {board_banner!r}; record: {record_banner!r}; search found {self.second_dog['name']} by {found}"

    # MARK: 2. changes made offline land once, in order

    def queued_writes(self) -> str:
        driver = self.driver
        note = f"Offline note {secrets.token_hex(3)}"
        self.written.append(note)
        weight = f"{20 + secrets.randbelow(10)}.{secrets.randbelow(9) + 1}"  # never "….0", which the app writes without a decimal
        self.changes_from = datetime.now(timezone.utc) - timedelta(seconds=1)
        go(driver, self.server, f"#/patients/{self.dog['id']}", ".record-weight h2", 20)
        type_into(field_input(driver, "New weight"), weight)
        button_with_text(driver, "Record weight").click()
        wait(driver, lambda d: any(f"Weight {weight} kg" in e.text and "waiting to send" in e.text for e in d.find_elements(By.CSS_SELECTOR, ".pending-panel li")),
             10, "the weight waits to be sent")
        driver.find_element(By.XPATH, "//summary[normalize-space()='Write a SOAP note']").click()
        type_into(field_input(driver, "Subjective"), note)
        button_with_text(driver, "Add note").click()
        wait(driver, lambda d: any(note in e.text for e in d.find_elements(By.CSS_SELECTOR, ".pending-panel li")), 10, "the note waits to be sent")
        go(driver, self.server, "#/er", f".board-card[data-patient='{self.dog['id']}']", 20)
        card = driver.find_element(By.CSS_SELECTOR, f".board-card[data-patient='{self.dog['id']}']")
        button_with_text(driver, "Start treatment", within=card).click()
        wait(driver, lambda d: any("In treatment" in e.text and "waiting to send" in e.text for e in d.find_elements(By.CSS_SELECTOR, ".pending-panel li")),
             10, "the board change waits to be sent")
        wait(driver, lambda d: "In treatment (waiting to send)" in d.find_element(By.CSS_SELECTOR, f".board-card[data-patient='{self.dog['id']}'] .status-pill").text,
             10, "the card shows the move waiting")
        wait(driver, lambda d: d.find_element(By.ID, "outbox-button").text == "3 waiting to send", 5, "three changes wait")
        # The tab is closed and another opened, still without the server.
        old = driver.current_window_handle
        driver.switch_to.new_window("tab")
        fresh = driver.current_window_handle
        driver.switch_to.window(old)
        driver.close()
        driver.switch_to.window(fresh)
        go(driver, self.server, "#/er", "h1#er-title", 20)
        wait(driver, lambda d: d.find_element(By.ID, "outbox-button").text == "3 waiting to send", 10, "the new tab has the three changes waiting")
        self.server.start()
        wait(driver, lambda d: not d.find_element(By.ID, "outbox-button").is_displayed(), 60, "everything sent once the server is back")
        # Exactly once each, through the API.
        record = self.admin.ok("GET", f"/api/v1/patients/{self.dog['id']}/record")
        weights = [w for w in record.get("weights", []) if abs(float(w.get("value", 0)) - float(weight)) < 1e-6 and w.get("unit", "kg") == "kg"
                   and w.get("measuredAt", "") >= stamp(self.changes_from)]
        notes = [n for n in record.get("notes", []) if n.get("subjective") == note]
        assert len(weights) == 1, f"the weight landed once: {weights or record.get('weights')}"
        assert len(notes) == 1, f"the note landed once: {notes}"
        board = self.admin.ok("GET", "/api/v1/triage/queue")["items"]
        entry = next(x for x in board if x["patientId"] == self.dog["id"])
        assert entry["status"] == "inTreatment", f"the board change landed: {entry['status']}"
        # ... and through the audit trail, in the order they were made.
        audit = self.admin.ok("GET", "/api/v1/audit?limit=200")["items"]
        mine = sorted((a for a in audit if a.get("actorId") == self.vet.user["id"] and a["occurredAt"] >= stamp(self.changes_from)
                       and a.get("outcome") == "success" and not a["action"].startswith("auth.")), key=lambda a: a["sequence"])
        actions = [a["action"] for a in mine]
        writes = [action for action in actions if not action.endswith((".read", ".list", ".search", ".open"))]
        assert writes == ["record.weight.add", "record.note.add", "triage.queue.move"], f"once each, in the order made: {actions}"
        return f"weight {weight} kg, note, status → inTreatment: once each; audit trail of the changes: {writes}"

    # MARK: 3. a conflict on replay

    def conflict(self) -> str:
        driver = self.driver
        owner_path = f"/api/v1/owners/{self.cat['ownerId']}"
        before = self.admin.ok("GET", owner_path)
        new_phone = f"07700 900{secrets.randbelow(900) + 100}"
        new_email = f"changed.{secrets.token_hex(3)}@mail.example"
        self.written += [new_phone, new_email]
        go(driver, self.server, f"#/patients/{self.cat['id']}", ".owner-card", 20)
        network(driver, offline=True)
        try:
            clickable(driver, "button[data-action=edit-owner]", 15).click()
            visible(driver, "dialog[open].edit-dialog form", 15)
            type_into(field_input(driver, "Phone 1", within=driver.find_element(By.CSS_SELECTOR, "dialog[open].edit-dialog")), new_phone)
            driver.find_element(By.CSS_SELECTOR, "dialog[open].edit-dialog form button[type=submit]").click()
            wait(driver, lambda d: any("Owner’s details" in e.text for e in d.find_elements(By.CSS_SELECTOR, ".pending-panel li")), 10,
                 "the owner's change waits to be sent")
            # Meanwhile another session changes the same owner.
            other = Client(self.server, ADMIN)
            current = other.ok("GET", owner_path)
            body = {k: current[k] for k in ("firstName", "lastName", "phones", "address", "communication", "notes") if current.get(k) is not None}
            body["email"] = new_email
            other.ok("PUT", owner_path, body, headers={"If-Match": f"\"{current['version']}\""})
        finally:
            network(driver, offline=False)
        button = wait(driver, lambda d: (lambda b: b if b.is_displayed() and "decision" in b.text else False)(d.find_element(By.ID, "outbox-button")), 40,
                      "the refused replay asks for a decision")
        middle = self.admin.ok("GET", owner_path)
        assert middle["email"] == new_email and middle["phones"] == before["phones"], "nothing was overwritten"
        button.click()
        visible(driver, "dialog[open].outbox-dialog .conflict", 10)
        stored = driver.find_element(By.CSS_SELECTOR, "dialog[open] .conflict tr[data-field=email] .stored-now").text
        mine = driver.find_element(By.CSS_SELECTOR, "dialog[open] .conflict tr[data-field=phones] .typed-here").text
        assert new_email in stored, f"the server's version is shown: {stored!r}"
        assert new_phone in mine, f"the change made here is shown: {mine!r}"
        self.axe_check("outbox-conflict")
        clickable(driver, "dialog[open] button[data-action=apply-mine]").click()
        wait(driver, lambda d: not d.find_element(By.ID, "outbox-button").is_displayed(), 20, "applied to the current version and sent")
        after = self.admin.ok("GET", owner_path)
        assert after["email"] == new_email, f"the other session's email is kept: {after.get('email')}"
        assert after["phones"][0]["number"] == new_phone, f"this device's phone is saved: {after['phones']}"
        driver.find_element(By.CSS_SELECTOR, "dialog[open] .row.end button").click()
        return f"412 on replay: stored email {new_email!r} beside phone {new_phone!r}; both kept after applying"

    # MARK: 3b. a state change that is already there

    def already_there(self) -> str:
        """A board move queued offline while another session makes the same move: refused as
        already done (409), it counts as landed — no decision asked, nothing moved twice."""
        driver = self.driver
        dogs = self.vet.ok("GET", "/api/v1/patients?species=dog&limit=8&status=active")["items"]
        patient = dogs[6]["patient"]
        self.vet.ok("POST", "/api/v1/triage/assessments", {"patientId": patient["id"], "case": {
            "species": "dog", "vitals": {"temperature": {"value": 40.7, "unit": "C"}}, "complaint": "collapsed on a walk"}})
        card_css = f".board-card[data-patient='{patient['id']}']"
        go(driver, self.server, "#/er", card_css, 20)
        network(driver, offline=True)
        try:
            button_with_text(driver, "Start treatment", within=driver.find_element(By.CSS_SELECTOR, card_css)).click()
            wait(driver, lambda d: any("In treatment" in e.text and "waiting to send" in e.text for e in d.find_elements(By.CSS_SELECTOR, ".pending-panel li")),
                 10, "the move waits to be sent")
            self.admin.ok("POST", f"/api/v1/triage/queue/{patient['id']}/status", {"status": "inTreatment"})
        finally:
            network(driver, offline=False)
        wait(driver, lambda d: not d.find_element(By.ID, "outbox-button").is_displayed(), 40, "the move counts as landed")
        entry = next(x for x in self.admin.ok("GET", "/api/v1/triage/queue")["items"] if x["patientId"] == patient["id"])
        assert entry["status"] == "inTreatment", entry["status"]
        return f"{patient['name']}: moved by another session first; the queued move counted as landed, no decision asked"

    # MARK: 3c. an appointment's check-in, and a move refused

    def open_appointment(self, card_css: str) -> None:
        """Opens the appointment dialog from its card on the schedule."""
        card = clickable(self.driver, card_css, 15)
        # A passing notice (toast) may lie over the card for a few seconds, as a person would wait it out.
        self.driver.execute_script("document.querySelectorAll('.toast').forEach((t) => t.remove())")
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'center'})", card)
        card.click()

    def check_in(self) -> str:
        """Offline, a check-in waits to be sent and lands; a move is refused with the reason."""
        driver = self.driver
        card_css = f".appointment[data-appointment='{self.appointment['id']}']"
        go(driver, self.server, f"#/schedule?date={self.appointment_day}", card_css, 20)
        network(driver, offline=True)
        try:
            self.open_appointment(card_css)
            clickable(driver, "dialog[open] button[data-action=reschedule]", 10).click()
            visible(driver, "dialog[open] form input[type=time]", 10)
            button_with_text(driver, "Move", within=driver.find_element(By.CSS_SELECTOR, "dialog[open] form")).click()
            refusal = wait(driver, lambda d: next((e.text for e in d.find_elements(By.CSS_SELECTOR, "dialog[open] .notice, dialog[open] .form-errors")
                                                   if e.is_displayed() and "clashes" in e.text), False), 10, "the move is refused with the reason")
            driver.execute_script("document.querySelectorAll('dialog[open]').forEach((d) => d.close())")
            self.open_appointment(card_css)
            clickable(driver, "dialog[open] button[data-action=check_in]", 10).click()
            wait(driver, lambda d: any("check in" in e.text and "waiting to send" in e.text for e in d.find_elements(By.CSS_SELECTOR, ".pending-panel li")),
                 10, "the check-in waits to be sent")
            assert self.vet.ok("GET", f"/api/v1/appointments/{self.appointment['id']}")["status"] == "booked", "nothing sent while offline"
            driver.execute_script("document.querySelectorAll('dialog[open]').forEach((d) => d.close())")
        finally:
            network(driver, offline=False)
        wait(driver, lambda d: not d.find_element(By.ID, "outbox-button").is_displayed(), 40, "the check-in is sent")
        status = self.vet.ok("GET", f"/api/v1/appointments/{self.appointment['id']}")["status"]
        assert status == "checked_in", f"checked in once back online: {status}"
        return f"move refused: {refusal.splitlines()[0]!r}; check-in sent: {status}"

    def cancel_offline(self) -> str:
        """Offline, a cancellation with its reason waits to be sent (an action that does not
        depend on the rest of the schedule, as the catalogue says) and lands once."""
        driver = self.driver
        card_css = f".appointment[data-appointment='{self.second['id']}']"
        go(driver, self.server, f"#/schedule?date={self.appointment_day}", card_css, 20)
        network(driver, offline=True)
        try:
            self.open_appointment(card_css)
            clickable(driver, "dialog[open] button[data-action=cancel]", 10).click()
            type_into(visible(driver, "dialog[open] form textarea", 10), "Owner rang: the cat is better")
            button_with_text(driver, "Cancel the appointment", within=driver.find_element(By.CSS_SELECTOR, "dialog[open] form")).click()
            wait(driver, lambda d: any("cancel" in e.text and "waiting to send" in e.text for e in d.find_elements(By.CSS_SELECTOR, ".pending-panel li")),
                 10, "the cancellation waits to be sent")
            assert self.vet.ok("GET", f"/api/v1/appointments/{self.second['id']}")["status"] == "booked", "nothing sent while offline"
            driver.execute_script("document.querySelectorAll('dialog[open]').forEach((d) => d.close())")
        finally:
            network(driver, offline=False)
        wait(driver, lambda d: not d.find_element(By.ID, "outbox-button").is_displayed(), 40, "the cancellation is sent")
        stored = self.vet.ok("GET", f"/api/v1/appointments/{self.second['id']}")
        assert stored["status"] == "cancelled" and stored.get("cancellationReason") == "Owner rang: the cat is better", stored
        return f"cancelled offline, sent once back: {stored['status']} ({stored['cancellationReason']!r})"

    # MARK: 4. triage given by hand

    def manual_triage(self) -> str:
        driver = self.driver
        patient = self.second_dog
        go(driver, self.server, "#/intake", "h1#intake-title", 20)
        network(driver, offline=True)
        try:
            type_into(visible(driver, "input[name=patient-search]"), patient["medicalRecordNumber"])
            clickable(driver, ".combo-list .combo-option", 10).click()
            if not field_input(driver, "Species").get_attribute("value"):
                Select(field_input(driver, "Species")).select_by_value("dog")
            type_into(field_input(driver, "Temperature"), "40.7")
            visible(driver, ".manual-triage", 10)
            self.axe_check("manual-triage")
            radio = driver.find_element(By.CSS_SELECTOR, ".manual-triage input[name=manualLevel][value='4']")
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", radio)
            radio.click()
            driver.find_element(By.CSS_SELECTOR, ".intake-form button[type=submit]").click()
            visible(driver, ".queued-triage", 10)
            assert self.vet.ok("GET", f"/api/v1/patients/{patient['id']}/assessments?limit=5")["items"] == [], "nothing sent while offline"
        finally:
            network(driver, offline=False)
        alert = wait(driver, lambda d: next(iter(triage_alerts(d)), False), 40, "an alert once the engine's level is known")
        assert alert["engine"] == "2" and alert["manual"] == "4", alert
        assert "more urgent" in alert["text"].lower(), alert["text"]
        # It stays until dismissed, across a reload.
        driver.refresh()
        wait(driver, lambda d: any(e.is_displayed() for e in d.find_elements(By.CSS_SELECTOR, "#triage-results [role=alert]")), 15,
             "the alert is still there after a reload")

        def dismiss(d):
            try:
                d.find_element(By.CSS_SELECTOR, "#triage-results .triage-result button").click()
            except (StaleElementReferenceException, NoSuchElementException):
                pass
            return not d.find_elements(By.CSS_SELECTOR, "#triage-results [role=alert]")
        wait(driver, dismiss, 10, "dismissed")
        assessments = self.vet.ok("GET", f"/api/v1/patients/{patient['id']}/assessments?limit=5")["items"]
        assert len(assessments) == 1 and assessments[0]["level"] == 2, f"sent once, graded orange: {[a['level'] for a in assessments]}"
        return f"alert: {alert['text'].strip()!r}; still there after a reload, until dismissed"

    def manual_triage_new_arrival(self) -> str:
        """A new arrival triaged by hand offline: owner, patient and assessment wait in order, then
        land once each, the assessment on the new patient; the engine's orange beside the hand's
        yellow raises the alert."""
        driver = self.driver
        suffix = secrets.token_hex(2)
        name, last = f"Rolo {suffix}", f"Vance-{suffix}"
        go(driver, self.server, "#/intake", "h1#intake-title", 20)
        network(driver, offline=True)
        try:
            toggle = button_with_text(driver, "New patient and owner")
            driver.execute_script("window.scrollTo(0, 0); arguments[0].scrollIntoView({block: 'center'})", toggle)
            toggle.click()
            type_into(field_input(driver, "Patient name"), name)
            type_into(field_input(driver, "Owner first name"), "Ada")
            type_into(field_input(driver, "Owner last name"), last)
            Select(field_input(driver, "Species")).select_by_value("dog")
            type_into(field_input(driver, "Temperature"), "40.7")
            visible(driver, ".manual-triage", 10)
            radio = driver.find_element(By.CSS_SELECTOR, ".manual-triage input[name=manualLevel][value='3']")
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", radio)
            radio.click()
            driver.find_element(By.CSS_SELECTOR, ".intake-form button[type=submit]").click()
            visible(driver, ".queued-triage", 10)
            wait(driver, lambda d: d.find_element(By.ID, "outbox-button").text == "3 waiting to send", 10, "owner, patient and triage wait")
        finally:
            network(driver, offline=False)
        alert = wait(driver, lambda d: next((a for a in triage_alerts(d) if name in a["text"]), False), 40,
                     "an alert for the new arrival once the engine's level is known")
        assert alert["engine"] == "2" and alert["manual"] == "3", alert
        found = [x for x in self.admin.ok("GET", f"/api/v1/patients?q={urllib.parse.quote(name)}&limit=20")["items"] if x["patient"]["name"] == name]
        assert len(found) == 1, f"the patient registered once: {len(found)}"
        owner = self.admin.ok("GET", f"/api/v1/owners/{found[0]['patient']['ownerId']}")
        assert owner["lastName"] == last, owner["lastName"]
        assessments = self.vet.ok("GET", f"/api/v1/patients/{found[0]['patient']['id']}/assessments?limit=5")["items"]
        assert [a["level"] for a in assessments] == [2], f"one assessment, orange: {[a['level'] for a in assessments]}"
        return f"{name} ({found[0]['patient']['medicalRecordNumber']}), owner Ada {last}: engine orange beside the hand's yellow, alerted"

    # MARK: 5. registering offline

    def offline_registration(self) -> str:
        """A new owner and their patient registered offline: both wait, then land once each, the
        patient with the owner's new id."""
        driver = self.driver
        suffix = secrets.token_hex(2)
        phone = f"07700 91{secrets.randbelow(9000) + 1000}"
        last, name = f"Quill-{suffix}", f"Pip {suffix}"
        go(driver, self.server, "#/patients/new", "h1#register-title", 20)
        network(driver, offline=True)
        try:
            type_into(field_input(driver, "First name"), "Morgan")
            type_into(field_input(driver, "Last name"), last)
            type_into(field_input(driver, "Phone"), phone)
            type_into(field_input(driver, "Patient name"), name)
            Select(field_input(driver, "Species")).select_by_value("dog")
            driver.find_element(By.CSS_SELECTOR, ".register-form button[type=submit]").click()
            visible(driver, "h1#patients-title", 15)
            wait(driver, lambda d: len([e for e in d.find_elements(By.CSS_SELECTOR, ".pending-panel li") if "waiting to send" in e.text]) == 2, 10,
                 "the owner and the patient wait to be sent")
        finally:
            network(driver, offline=False)
        wait(driver, lambda d: not d.find_element(By.ID, "outbox-button").is_displayed(), 40, "both sent once the network is back")
        patients = [x for x in self.admin.ok("GET", f"/api/v1/patients?q={urllib.parse.quote(name)}&limit=20")["items"] if x["patient"]["name"] == name]
        assert len(patients) == 1, f"the patient registered once: {len(patients)}"
        owner = self.admin.ok("GET", f"/api/v1/owners/{patients[0]['patient']['ownerId']}")
        assert owner["lastName"] == last, f"the patient's owner is the one registered with it: {owner['lastName']}"
        owners = [x for x in self.admin.ok("GET", f"/api/v1/patients?q={urllib.parse.quote(last)}&limit=20")["items"]]
        assert len({x["patient"]["ownerId"] for x in owners}) == 1, "the owner registered once"
        return f"{name} ({patients[0]['patient']['medicalRecordNumber']}) with owner Morgan {last}, once each"

    # MARK: 6. signing out

    def sign_out_clears(self) -> str:
        driver = self.driver
        # What only the practice's data holds: record numbers, the note and the phone written
        # here, and patients' names as the API writes them.
        patients = (self.dog, self.cat, self.second_dog)
        names = [p["medicalRecordNumber"] for p in patients] + [f'"name":"{p["name"]}"' for p in patients] + self.written
        go(driver, self.server, "#/er", "h1#er-title", 20)
        held = kept_names(driver)
        assert len(held) > 5, f"before signing out the device holds data: {held}"
        driver.find_element(By.ID, "sign-out").click()
        visible(driver, "input[name=email]", 15)
        state = device(driver)
        problems = []
        for db in state["databases"]:
            for store, rows in db["stores"].items():
                if db["name"] == "vetnet-offline" and rows:
                    problems.append(f"{db['name']}/{store} holds {len(rows)} rows")
                for key, value in rows:
                    problems += [f"{name!r} in {db['name']}/{store}" for name in names + [p["name"] for p in patients] if name in value or name in key]
        for entry in state["caches"]:
            if "/api/" in entry["url"]:
                problems.append(f"an API answer in the cache: {entry['url']}")
            problems += [f"{name!r} in the cache entry {entry['url']}" for name in names if name in entry["body"]]
        assert not problems, "; ".join(problems[:5])
        return (f"before: {len(held)} kept answers; after: databases {[d['name'] for d in state['databases']]}, "
                f"{len(state['caches'])} app files cached in {sorted({e['cache'] for e in state['caches']})}, no patient name anywhere")

    # MARK: 7. a new version of the app

    def app_update(self) -> str:
        """A server with changed app files is a new service worker: on the next start it takes
        over before the app draws (its files, not a mix), and the old version's cache is gone."""
        copy = Path(tempfile.mkdtemp(prefix="vetnet-offline-build-"))
        source = self.server.binary.parent
        try:
            try:
                os.link(self.server.binary, copy / self.server.binary.name)
            except OSError:
                shutil.copy2(self.server.binary, copy / self.server.binary.name)
            for bundle in source.glob("*.resources"):
                shutil.copytree(bundle, copy / bundle.name)
            webapp = next(copy.glob("*.resources/WebApp"))
            other = Server(copy / self.server.binary.name, self.artifacts / "update")
            driver = browser(1024, 768)
            try:
                other.start()
                sign_in(driver, other, ADMIN)
                state = "const done = arguments[0]; (async () => ({ controlled: !!navigator.serviceWorker.controller, caches: await caches.keys(), " \
                        "marker: (await (await fetch('/app/ui.js')).text()).includes('version two') }))().then(done, (e) => done({ error: String(e) }));"
                first = wait(driver, lambda d: (lambda s: s if s.get("controlled") and s.get("caches") else False)(d.execute_async_script(state)), 15,
                             "the first version controls the page")
                other.kill()
                ui = webapp / "app" / "ui.js"
                ui.write_text(ui.read_text() + "\n// version two\n")
                other.start()
                driver.refresh()
                visible(driver, "h1#home-title", 30)
                second = driver.execute_async_script(state)
                assert second.get("marker"), f"the new version's files on the next start: {second}"
                assert len(second["caches"]) == 1 and second["caches"] != first["caches"], f"one cache, the new version's: {first['caches']} → {second['caches']}"
                return f"{first['caches'][0]} → {second['caches'][0]} at the next start"
            finally:
                driver.quit()
                other.stop()
        finally:
            shutil.rmtree(copy, ignore_errors=True)

    # MARK: axe

    def axe_check(self, name: str) -> None:
        axe = Axe(self.driver)
        axe.inject()
        results = axe.run(options=json.dumps({"resultTypes": ["violations"]}))
        serious = [v for v in results["violations"] if v.get("impact") in ("serious", "critical")]
        self.axe[name] = {"violations": len(results["violations"]), "serious_or_critical": len(serious),
                          "details": [{"id": v["id"], "impact": v["impact"], "help": v["help"], "nodes": [n.get("target") for n in v["nodes"][:5]]}
                                      for v in results["violations"]]}
        if serious:
            raise AssertionError(f"axe on {name}: " + "; ".join(f"{v['id']} ({v['impact']}): {v['help']} at {[n.get('target') for n in v['nodes'][:3]]}" for v in serious))

    def axe_summary(self) -> str:
        assert {"offline-er-board", "outbox-conflict", "manual-triage"} <= set(self.axe), f"axe ran on {sorted(self.axe)}"
        serious = {k: v["serious_or_critical"] for k, v in self.axe.items()}
        assert not any(serious.values()), serious
        return ", ".join(f"{k}: 0 serious/critical ({v['violations']} in all)" for k, v in self.axe.items())


def stamp(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vetnet", type=Path, default=ROOT / ".build/debug/vetnet", help="the vetnet executable")
    parser.add_argument("--artifacts", type=Path, default=ROOT / ".build/browser-artifacts/offline", help="screenshots, axe results, logs")
    args = parser.parse_args(argv)
    if not args.vetnet.exists():
        print(f"no vetnet executable at {args.vetnet}", file=sys.stderr)
        return 2
    args.artifacts.mkdir(parents=True, exist_ok=True)
    server = Server(args.vetnet.resolve(), args.artifacts)
    checks = Checks(server, args.artifacts)
    started = time.monotonic()
    driver = None
    try:
        server.start()
        checks.prepare()
        driver = browser(1024, 768)
        checks.driver = driver
        if checks.run("offline-start", checks.offline_start):
            checks.run("queued-writes-land-once", checks.queued_writes)
        else:
            checks.results.append(("queued-writes-land-once", False, "not run: the offline start failed"))
        if server.process is None:
            server.start()
        checks.run("replay-conflict", checks.conflict)
        checks.run("already-in-target-state", checks.already_there)
        checks.run("appointment-check-in", checks.check_in)
        checks.run("appointment-cancel-offline", checks.cancel_offline)
        checks.run("manual-triage-alert", checks.manual_triage)
        checks.run("manual-triage-new-arrival", checks.manual_triage_new_arrival)
        checks.run("offline-registration", checks.offline_registration)
        checks.run("sign-out-clears", checks.sign_out_clears)
        checks.run("axe", checks.axe_summary)
        checks.run("app-update", checks.app_update)
    finally:
        if driver:
            try:
                logs = driver.get_log("browser")
                (args.artifacts / "browser-console.json").write_text(json.dumps(logs, indent=1))
            except Exception:  # noqa: BLE001
                pass
            driver.quit()
        (args.artifacts / "axe.json").write_text(json.dumps(checks.axe, indent=1))
        server.stop()
    failed = [r for r in checks.results if not r[1]]
    print(f"\n{len(checks.results) - len(failed)} of {len(checks.results)} offline checks passed in {time.monotonic() - started:.0f} s"
          + ("" if not failed else f"; failed: {', '.join(r[0] for r in failed)}"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

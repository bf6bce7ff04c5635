// MARK: - How the engine reads the specification

/// Where the triage specification (`triage-vtl.md`) is ambiguous or silent, and the reading
/// the engine implements. The rule throughout: choose the reading that gives the **more
/// urgent** level, never the one that could under-triage, and say so here.
///
/// ## Levels and fall-through
/// - **Unknown onset** falls through to green, not blue (spec §2.4). The same "unknown means
///   recent" reading is used for `mild_pain_recent`: mild pain with unknown onset fires it.
/// - **"Within 7 days"** is inclusive: onset ≤ 168 h is recent (green), > 168 h is blue.
/// - **Yellow's maximum wait** is 60 min, the table's target (the VTL allows 30–60 min).
///
/// ## Glucose units (§3, §4.1)
/// The spec's paired figures disagree: 60 mg/dL is 3.33 mmol/L, not 3.3; 200 mg/dL is
/// 11.10 mmol/L, not 11. The engine fires on **either** figure: hypoglycaemia at
/// ≤ 3.3304 mmol/L (= 60 mg/dL, so 3.32 mmol/L fires), hyperglycaemia with ketosis at
/// ≥ 11.0 mmol/L (= 198.18 mg/dL, so 199 mg/dL with ketosis fires). See ``ClinicalThresholds``.
///
/// ## Seizures (§4.3)
/// The VTL names exactly 1 seizure in 24 h (`seizure_recent_isolated`) and more than 2
/// (`cluster_seizures`) and is silent on exactly 2. Two seizures fire
/// `seizure_recent_isolated` (with a rule text saying so) rather than nothing, so the
/// disability letter shows and an old onset cannot make the case blue. The cluster
/// threshold itself is kept exactly as published (> 2).
///
/// ## Decompensated shock (§4.2)
/// The project rule is implemented exactly. Readings: "pale" membranes for the shock sign
/// are pale, white, grey and cyanotic (as listed), *not* pale_pink (cyanotic membranes also
/// fire `cyanosis`, §4.4); "cool extremities or T < 37.8 °C" is one sign however many of
/// the two are present; CRT absent fires alone; the 37.8 °C sign applies to every species,
/// the heart-rate signs only to cats and dogs.
///
/// ## Objective vital-sign safety net (§4.4, rules `vetnet-1.1.0`)
/// The five discriminators are implemented exactly as the §4.4 table states, thresholds
/// included: SpO₂ 90.0 fires `spo2_low` and 95.0 nothing; dog HR 60 and 180 fire nothing,
/// 59.9 and 180.1 fire `abnormal_pulse`; cat HR 120 fires it, 120.1 and 260 do not, 260.1
/// does; systolic BP 90 fires nothing, 89.9 fires `hypotension`. Readings:
/// - **Alongside shock, not instead of it.** Unlike `pale_membranes_no_shock`, the table
///   gives no "while shock did not fire" condition, so these fire whether or not
///   `shock_decompensated` does, and whatever the staff observed (severe respiratory
///   distress and `cyanosis` are both reported). The level is unchanged by this (shock is
///   red), and the explanation shows every sign that was measured (§2.3). Cyanotic
///   membranes therefore count as a shock sign (§4.2) *and* fire `cyanosis`.
/// - **Cat heart rate 120.** `abnormal_pulse` fires at ≤ 120 /min while the shock sign is
///   < 120 /min and the reference range (§5) starts at 120: the sources differ and each
///   rule keeps its published boundary, so a cat at exactly 120 /min is orange
///   (`abnormal_pulse`) with no shock sign and no bradycardia flag.
/// - **Species.** `cyanosis`, the SpO₂ bands and a weak or absent pulse apply to every
///   species (with `validatedForSpecies: false` outside dogs and cats); the heart-rate
///   grades and `hypotension` apply to dogs and cats only. Another species' heart rate or
///   low pressure stays an abnormal vital against its reference range (§5).
/// - **One entry per sign.** SpO₂ fires one band, never both. `abnormal_pulse` fires once
///   with the heart rate and the pulse quality as evidence when both are abnormal. A
///   bounding pulse is not `abnormal_pulse` (the table names weak or absent); it remains a
///   flagged abnormal vital.
/// - **Catalogue data the table does not give.** Subcategory: `cyanosis` and the SpO₂
///   bands are respiratory, `abnormal_pulse` and `hypotension` circulatory (their ABCDE
///   letters). Source: project choice, each definition naming the published sign it comes
///   from. Routing: emergency & critical care for `cyanosis`, `spo2_very_low` and
///   `hypotension`; cardiology first for `abnormal_pulse` (arrhythmia, §7); internal
/// medicine first for `spo2_low`, like `resp_distress_mild`. Each may also be asserted in `findings`, like any derived
/// id.
/// - **Respiratory rate** is not a discriminator (panting dogs); it stays a flagged
///   abnormal vital, as the spec says.
/// - **Stored assessments** keep the rules version they were made with (it is stored with
///   each result); a re-triage evaluates with the current rules, so its version may differ
///   from the assessment it follows.
///
/// ## Temperature bands and species (§3)
/// Derived temperature bands apply to dogs and cats only; other species get an abnormal
/// vital against their reference range and `validatedForSpecies: false`. An **asserted**
/// temperature id is honoured for any species: it is the clinician's explicit judgement.
///
/// ## Reference ranges (§5)
/// Dogs use 60–120 /min (the small-dog 70–120 needs a size the case does not carry); horses
/// use adult ranges; birds use the class-wide heart and respiratory ranges and 40–42 °C
/// around the "~41 °C core"; reptiles and "other" have no range. Pale-pink membranes are
/// flagged as abnormal (possible early anaemia), being "not pink".
///
/// ## Foreign body (§3)
/// `foreign_body_with_signs` is also derived: an asserted `foreign_body_possible` with onset
/// > 24 h and vomiting (any) or ≥ 24 h without food is upgraded to orange. Unknown onset
/// does not upgrade (missing data fires nothing; the yellow entry still fires).
///
/// ## ABCDE (§6)
/// The survey has six entries, `<C>` (catastrophic bleeding) first: exsanguinating
/// haemorrhage makes it critical, uncontrollable major haemorrhage abnormal. An abnormal
/// vital raises its letter to abnormal (never critical: critical is reserved for red
/// discriminators), so a rabbit's fever still shows under E.
///
/// ## Input that is refused (§4.1, §9)
/// Unknown keys are errors, not ignored (a typo such as `heartrate` would drop a vital).
/// A temperature or glucose without its unit is refused: 40 could be a fever in °C or
/// deep hypothermia in °F. Duplicate JSON keys are refused (the second could silently hide
/// the first). Limits the spec does not give are set wide (``PhysicalLimits``), so a real
/// extreme (respiratory rate 0 in apnoea) is accepted and flagged rather than refused.
/// `null` means "not measured".
///
/// ## Routing (§7)
/// Red and orange go to emergency & critical care first whatever else scores. Exotic
/// species score high for the exotics service (the species decides who can treat it
/// safely). With no evidence the case goes to general practice.
///
/// ## Queue (architecture: pure state machines)
/// Legal moves: waiting → inTreatment, waiting → leftWithoutBeingSeen, inTreatment → done.
/// A re-triage keeps the original arrival (the wait began then) so a raised level can make
/// the patient overdue at once. An assessment older than the one on the board is refused;
/// a new assessment after `done`/`leftWithoutBeingSeen` is a new arrival. Patients in
/// treatment stay on the board and are never overdue.
public enum SpecificationReadings {}

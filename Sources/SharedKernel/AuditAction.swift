/// An action the audit trail records. Every name is here, once: a handler, a store and a
/// test name an action by its constant, so two paths cannot record the same act under two
/// spellings, and the trail's vocabulary can be read in one place.
///
/// Names are dotted, resource first (`patient.read`, `triage.override`). Two families are
/// derived rather than listed: the replay of an idempotent request (``replay(of:)``) and a
/// change recorded under the domain event it publishes (``event(_:)``, e.g. `appointment.booked`).
public struct AuditAction: Hashable, Sendable, CustomStringConvertible {
    /// The dotted name kept in the trail.
    public let name: String

    private init(_ name: String) { self.name = name }

    public var description: String { name }

    /// The kind of resource the action is about: the name's first part (`patient` of `patient.read`).
    public var resourceType: String { name.split(separator: ".").first.map(String.init) ?? name }

    /// The replay of an idempotent request first recorded as `operation`.
    public static func replay(of operation: AuditAction) -> AuditAction { AuditAction(operation.name + ".replay") }

    /// A change recorded under the name of the domain event it publishes (an appointment's
    /// `appointment.booked`, `appointment.cancelled`, …): the event kind is the domain's own word.
    public static func event(_ kind: String) -> AuditAction { AuditAction(kind) }

    // MARK: analytics

    /// `analytics.bottlenecks.read`
    public static let analyticsBottlenecksRead = AuditAction("analytics.bottlenecks.read")
    /// `analytics.dashboard.read`
    public static let analyticsDashboardRead = AuditAction("analytics.dashboard.read")
    /// `analytics.forecast.read`
    public static let analyticsForecastRead = AuditAction("analytics.forecast.read")
    /// `analytics.insights.read`
    public static let analyticsInsightsRead = AuditAction("analytics.insights.read")
    /// `analytics.metrics.list`
    public static let analyticsMetricsList = AuditAction("analytics.metrics.list")
    /// `analytics.report.read`
    public static let analyticsReportRead = AuditAction("analytics.report.read")
    /// `analytics.series.read`
    public static let analyticsSeriesRead = AuditAction("analytics.series.read")
    /// `analytics.triage_overrides.read`
    public static let analyticsTriageOverridesRead = AuditAction("analytics.triage_overrides.read")

    // MARK: appointment

    /// `appointment.book`
    public static let appointmentBook = AuditAction("appointment.book")
    /// `appointment.list`
    public static let appointmentList = AuditAction("appointment.list")
    /// `appointment.notes.update`
    public static let appointmentNotesUpdate = AuditAction("appointment.notes.update")
    /// `appointment.note.add`
    public static let appointmentNoteAdd = AuditAction("appointment.note.add")
    /// `appointment.notes.read`
    public static let appointmentNotesRead = AuditAction("appointment.notes.read")
    /// `appointment.read`
    public static let appointmentRead = AuditAction("appointment.read")
    /// `appointment.slots`
    public static let appointmentSlots = AuditAction("appointment.slots")

    // MARK: appointment_type

    /// `appointment_type.update`
    public static let appointmentTypeUpdate = AuditAction("appointment_type.update")
    /// `appointment_type.retire`
    public static let appointmentTypeRetire = AuditAction("appointment_type.retire")
    /// `appointment_type.create`
    public static let appointmentTypeCreate = AuditAction("appointment_type.create")
    /// `appointment_type.list`
    public static let appointmentTypeList = AuditAction("appointment_type.list")

    // MARK: audit

    /// `audit.list`
    public static let auditList = AuditAction("audit.list")
    /// `audit.verify`
    public static let auditVerify = AuditAction("audit.verify")

    // MARK: audit (the trail's own record)

    /// `audit.re_anchored`
    public static let auditReAnchored = AuditAction("audit.re_anchored")

    // MARK: auth

    /// `auth.login`
    public static let authLogin = AuditAction("auth.login")
    /// `auth.logout`
    public static let authLogout = AuditAction("auth.logout")
    /// `auth.second_factor.start`: a secret to enrol was issued.
    public static let authSecondFactorStart = AuditAction("auth.second_factor.start")
    /// `auth.second_factor.enrol`: a second factor was confirmed with a code.
    public static let authSecondFactorEnrol = AuditAction("auth.second_factor.enrol")
    /// `auth.second_factor.read`
    public static let authSecondFactorRead = AuditAction("auth.second_factor.read")
    /// `auth.second_factor.reset`: an administrator removed someone's second factor.
    public static let authSecondFactorReset = AuditAction("auth.second_factor.reset")
    /// `auth.passkey.add`: a staff member made a passkey (detail: its name).
    public static let authPasskeyAdd = AuditAction("auth.passkey.add")
    /// `auth.passkey.remove`: a staff member removed one of their passkeys.
    public static let authPasskeyRemove = AuditAction("auth.passkey.remove")
    /// `auth.passkey.list`
    public static let authPasskeyList = AuditAction("auth.passkey.list")
    /// `auth.pin.set`: a staff member set their PIN for shared devices.
    public static let authPinSet = AuditAction("auth.pin.set")
    /// `auth.unlock`: a PIN unlock of a shared device (detail: the device).
    public static let authUnlock = AuditAction("auth.unlock")

    // MARK: shared_device

    /// `shared_device.register`
    public static let sharedDeviceRegister = AuditAction("shared_device.register")
    /// `shared_device.list`
    public static let sharedDeviceList = AuditAction("shared_device.list")
    /// `shared_device.revoke`
    public static let sharedDeviceRevoke = AuditAction("shared_device.revoke")

    // MARK: breeds

    /// `breeds.list`
    public static let breedsList = AuditAction("breeds.list")

    // MARK: clinician

    /// `clinician.availability.read`
    public static let clinicianAvailabilityRead = AuditAction("clinician.availability.read")
    /// `clinician.availability.update`
    public static let clinicianAvailabilityUpdate = AuditAction("clinician.availability.update")
    /// `clinician.calendar_feed.create`
    public static let clinicianCalendarFeedCreate = AuditAction("clinician.calendar_feed.create")
    /// `clinician.calendar_feed.read`
    public static let clinicianCalendarFeedRead = AuditAction("clinician.calendar_feed.read")
    /// `clinician.calendar_feed.revoke`
    public static let clinicianCalendarFeedRevoke = AuditAction("clinician.calendar_feed.revoke")
    /// `clinician.create`
    public static let clinicianCreate = AuditAction("clinician.create")
    /// `clinician.list`
    public static let clinicianList = AuditAction("clinician.list")
    /// `clinician.read`
    public static let clinicianRead = AuditAction("clinician.read")
    /// `clinician.retire`
    public static let clinicianRetire = AuditAction("clinician.retire")
    /// `clinician.update`
    public static let clinicianUpdate = AuditAction("clinician.update")

    // MARK: events

    /// `events.changes.read`
    public static let eventsChangesRead = AuditAction("events.changes.read")
    /// `events.stream`
    public static let eventsStream = AuditAction("events.stream")
    /// `events.stream.open`
    public static let eventsStreamOpen = AuditAction("events.stream.open")
    /// `events.tail`
    public static let eventsTail = AuditAction("events.tail")

    // MARK: intake

    /// `intake`
    public static let intake = AuditAction("intake")

    // MARK: matching

    /// `matching.rank`
    public static let matchingRank = AuditAction("matching.rank")

    // MARK: owner

    /// `owner.create`
    public static let ownerCreate = AuditAction("owner.create")
    /// `owner.read`
    public static let ownerRead = AuditAction("owner.read")
    /// `owner.update`
    public static let ownerUpdate = AuditAction("owner.update")

    // MARK: patient

    /// `patient.appointments.read`
    public static let patientAppointmentsRead = AuditAction("patient.appointments.read")
    /// `patient.create`
    public static let patientCreate = AuditAction("patient.create")
    /// `patient.import`
    public static let patientImport = AuditAction("patient.import")
    /// `patient.purge`
    public static let patientPurge = AuditAction("patient.purge")
    /// `patient.read`
    public static let patientRead = AuditAction("patient.read")
    /// `patient.search`
    public static let patientSearch = AuditAction("patient.search")
    /// `patient.update`
    public static let patientUpdate = AuditAction("patient.update")

    // MARK: practice

    /// `practice.bulk_load`
    public static let practiceBulkLoad = AuditAction("practice.bulk_load")
    /// `practice.closure.add`
    public static let practiceClosureAdd = AuditAction("practice.closure.add")
    /// `practice.closure.affected`
    public static let practiceClosureAffected = AuditAction("practice.closure.affected")
    /// `practice.closure.remove`
    public static let practiceClosureRemove = AuditAction("practice.closure.remove")
    /// `practice.create`
    public static let practiceCreate = AuditAction("practice.create")
    /// `practice.export`
    public static let practiceExport = AuditAction("practice.export")
    /// `practice.history_load`
    public static let practiceHistoryLoad = AuditAction("practice.history_load")
    /// `practice.restore`
    public static let practiceRestore = AuditAction("practice.restore")
    /// `practice.update`
    public static let practiceUpdate = AuditAction("practice.update")

    // MARK: record

    /// `record.addendum.add`
    public static let recordAddendumAdd = AuditAction("record.addendum.add")
    /// `record.allergy.add`
    public static let recordAllergyAdd = AuditAction("record.allergy.add")
    /// `record.document.download`
    public static let recordDocumentDownload = AuditAction("record.document.download")
    /// `record.document.list`
    public static let recordDocumentList = AuditAction("record.document.list")
    /// `record.document.upload`
    public static let recordDocumentUpload = AuditAction("record.document.upload")
    /// `record.correct`
    public static let recordCorrect = AuditAction("record.correct")
    /// `record.dose`
    public static let recordDose = AuditAction("record.dose")
    /// `record.medication.add`
    public static let recordMedicationAdd = AuditAction("record.medication.add")
    /// `record.note.add`
    public static let recordNoteAdd = AuditAction("record.note.add")
    /// `record.problem.add`
    public static let recordProblemAdd = AuditAction("record.problem.add")
    /// `record.read`
    public static let recordRead = AuditAction("record.read")
    /// `record.recalls.read`
    public static let recordRecallsRead = AuditAction("record.recalls.read")
    /// `record.vaccination.add`
    public static let recordVaccinationAdd = AuditAction("record.vaccination.add")
    /// `record.vaccination.proposal`
    public static let recordVaccinationProposal = AuditAction("record.vaccination.proposal")
    /// `record.vaccinations_due.read`
    public static let recordVaccinationsDueRead = AuditAction("record.vaccinations_due.read")
    /// `record.visit.add`
    public static let recordVisitAdd = AuditAction("record.visit.add")
    /// `record.visit.read`
    public static let recordVisitRead = AuditAction("record.visit.read")
    /// `record.visits.read`
    public static let recordVisitsRead = AuditAction("record.visits.read")
    /// `record.weight.add`
    public static let recordWeightAdd = AuditAction("record.weight.add")

    // MARK: records

    /// `records.purge`
    public static let recordsPurge = AuditAction("records.purge")

    // MARK: room

    /// `room.update`
    public static let roomUpdate = AuditAction("room.update")
    /// `room.create`
    public static let roomCreate = AuditAction("room.create")
    /// `room.list`
    public static let roomList = AuditAction("room.list")

    // MARK: schedule

    /// `schedule.duration_model.read`
    public static let scheduleDurationModelRead = AuditAction("schedule.duration_model.read")
    /// `schedule.optimize`
    public static let scheduleOptimize = AuditAction("schedule.optimize")
    /// `schedule.replan`
    public static let scheduleReplan = AuditAction("schedule.replan")

    // MARK: triage

    /// `triage.assess`
    public static let triageAssess = AuditAction("triage.assess")
    /// `triage.evaluate`
    public static let triageEvaluate = AuditAction("triage.evaluate")
    /// `triage.history.read`
    public static let triageHistoryRead = AuditAction("triage.history.read")
    /// `triage.override`
    public static let triageOverride = AuditAction("triage.override")
    /// `triage.queue.move`
    public static let triageQueueMove = AuditAction("triage.queue.move")
    /// `triage.queue.read`
    public static let triageQueueRead = AuditAction("triage.queue.read")

    // MARK: vaccination

    /// `vaccination.protocol.read`
    public static let vaccinationProtocolRead = AuditAction("vaccination.protocol.read")

    // MARK: user

    /// `user.create`
    public static let userCreate = AuditAction("user.create")
    /// `user.list`
    public static let userList = AuditAction("user.list")
    /// `user.password_change`
    public static let userPasswordChange = AuditAction("user.password_change")
    /// `user.read`
    public static let userRead = AuditAction("user.read")
    /// `user.update`
    public static let userUpdate = AuditAction("user.update")

    /// Every listed action (the derived families aside), for documentation and checks.
    public static let catalogue: [AuditAction] = [
        .auditReAnchored, .intake, .appointmentNoteAdd, .appointmentNotesRead, .recordVaccinationProposal,
        .vaccinationProtocolRead, .recordCorrect, .roomUpdate, .appointmentTypeUpdate, .appointmentTypeRetire,
        .analyticsBottlenecksRead, .analyticsDashboardRead, .analyticsForecastRead, .analyticsInsightsRead,
        .analyticsMetricsList, .analyticsReportRead, .analyticsSeriesRead, .analyticsTriageOverridesRead,
        .appointmentBook,
        .appointmentList, .appointmentNotesUpdate, .appointmentRead, .appointmentSlots, .appointmentTypeCreate,
        .appointmentTypeList, .auditList, .auditVerify, .authLogin, .authLogout, .authSecondFactorStart,
        .authSecondFactorEnrol,
        .authSecondFactorRead, .authSecondFactorReset, .authPasskeyAdd, .authPasskeyRemove, .authPasskeyList,
        .authPinSet, .authUnlock, .sharedDeviceRegister,
        .sharedDeviceList, .sharedDeviceRevoke, .breedsList,
        .clinicianAvailabilityRead,
        .clinicianAvailabilityUpdate, .clinicianCalendarFeedCreate, .clinicianCalendarFeedRead,
        .clinicianCalendarFeedRevoke,
        .clinicianCreate, .clinicianList, .clinicianRead, .clinicianRetire, .clinicianUpdate, .eventsChangesRead,
        .eventsStream,
        .eventsStreamOpen, .eventsTail, .matchingRank, .ownerCreate, .ownerRead, .ownerUpdate, .patientAppointmentsRead,
        .patientCreate, .patientImport, .patientPurge, .patientRead, .patientSearch, .patientUpdate, .practiceBulkLoad,
        .practiceClosureAdd, .practiceClosureAffected, .practiceClosureRemove, .practiceCreate, .practiceExport,
        .practiceHistoryLoad, .practiceRestore, .practiceUpdate, .recordAddendumAdd, .recordAllergyAdd,
        .recordDocumentDownload,
        .recordDocumentList, .recordDocumentUpload, .recordDose, .recordMedicationAdd, .recordNoteAdd,
        .recordProblemAdd,
        .recordRead, .recordRecallsRead, .recordVaccinationAdd, .recordVaccinationsDueRead, .recordVisitAdd,
        .recordVisitRead,
        .recordVisitsRead, .recordWeightAdd, .recordsPurge, .roomCreate, .roomList, .scheduleDurationModelRead,
        .scheduleOptimize, .scheduleReplan, .triageAssess, .triageEvaluate, .triageHistoryRead, .triageOverride,
        .triageQueueMove, .triageQueueRead, .userCreate, .userList, .userPasswordChange, .userRead, .userUpdate,
    ]
}

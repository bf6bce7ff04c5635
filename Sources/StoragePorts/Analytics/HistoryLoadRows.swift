import Analytics
import Foundation
import PatientRecords
import Scheduling
import SharedKernel
import Triage

/// What a practice's store holds that a generated past may name. Each store loads it in
/// its own SQL; the checks of every row against it, and the row each store then writes, are
/// decided here once, so a history both stores accept is the same history.
public struct HistoryReferences: Sendable {
    /// A patient's facts that a weighing is validated against.
    public struct Patient: Sendable {
        /// The patient's species.
        public let species: Species
        /// The patient's birth date, when known.
        public let birthDate: Date?

        /// Creates the value from its parts.
        public init(species: Species, birthDate: Date?) {
            self.species = species
            self.birthDate = birthDate
        }
    }

    /// The practice every row must belong to.
    public let practiceID: PracticeID
    /// The practice's clinicians, retired ones included (a past may name them).
    public var clinicians: Set<UUID> = []
    /// The practice's appointment types.
    public var appointmentTypes: Set<UUID> = []
    /// The practice's rooms.
    public var rooms: Set<UUID> = []
    /// The practice's patients, by id.
    public var patients: [UUID: Patient] = [:]

    /// An empty set of references for `practiceID`, filled by the store.
    public init(practiceID: PracticeID) {
        self.practiceID = practiceID
    }

    /// The patient named, or a 404 naming the patient: the past may not name another
    /// practice's animal.
    public func patient(_ id: UUID) throws -> Patient {
        let patient = try patients[id].orNotFound("patient")
        return patient
    }

    /// The row a past appointment is stored as, once everything it names is the practice's
    /// own. A booking with no booking time is taken as booked `now`.
    public func appointmentRow(_ record: AppointmentRecord, now: Date) throws -> HistoryAppointmentRow {
        let appointment = record.appointment
        guard appointment.practiceID == practiceID else { throw DomainError.notFound(resource: "practice") }
        let patient = try patient(appointment.patientID)
        guard clinicians.contains(appointment.clinicianID) else { throw DomainError.notFound(resource: "clinician") }
        guard appointmentTypes.contains(appointment.appointmentTypeID.rawValue) else {
            throw DomainError.notFound(resource: "appointment type")
        }
        if let room = appointment.roomID, !rooms.contains(room.rawValue) {
            throw DomainError.notFound(resource: "room")
        }
        return HistoryAppointmentRow(record, species: patient.species, bookedAt: record.bookedAt ?? now)
    }

    /// The row a past triage arrival is stored as: its patient is the practice's, and it was
    /// not first seen before it arrived.
    public func arrivalRow(_ arrival: TriageArrival) throws -> HistoryArrivalRow {
        _ = try patient(arrival.patientID)
        if let seen = arrival.firstSeenAt, seen < arrival.arrival {
            throw ValidationError(field: "firstSeenAt", message: "must not be before the arrival")
        }
        return HistoryArrivalRow(
            practiceID: practiceID.rawValue, patientID: arrival.patientID,
            arrivalAtMs: Timestamp.milliseconds(arrival.arrival), level: arrival.level.rawValue,
            firstSeenAtMs: arrival.firstSeenAt.map(Timestamp.milliseconds))
    }

    /// The row a past weighing is stored as, validated as the record validates a weighing
    /// entered today (species, birth date, not in the future).
    public func weightRow(_ weight: WeightMeasurement, now: Date) throws -> HistoryWeightRow {
        let patient = try patient(weight.patientID.rawValue)
        try weight.validate(species: patient.species, birthDate: patient.birthDate, now: now)
        return HistoryWeightRow(
            id: weight.id.rawValue, practiceID: practiceID.rawValue, patientID: weight.patientID.rawValue,
            value: "\(weight.value)", unit: weight.unit.rawValue, grams: weight.roundedGrams,
            measuredAt: weight.measuredAt, createdAt: now)
    }
}

extension HistoryLoadSummary {
    /// The one audit entry a history load writes, instead of one per row.
    public func auditRecord(practiceID: PracticeID) -> AuditRecord {
        AuditRecord(
            action: .practiceHistoryLoad, resourceType: .practice, resourceID: practiceID.description,
            detail: "appointments=\(appointments) arrivals=\(arrivals) weights=\(weights)")
    }
}

/// A past appointment as both stores write it. It encodes as one JSON object keyed by column
/// name (absent values left out, so they arrive as NULL), for stores that send rows in batches.
public struct HistoryAppointmentRow: Encodable, Sendable {
    public let id: UUID, patientID: UUID, clinicianID: UUID, appointmentTypeID: UUID
    public let roomType: String?, roomID: UUID?
    public let startMs: Int64, endMs: Int64, occupiedEndMs: Int64
    public let status: String, holdsTime: Bool
    public let checkedInAtMs: Int64?, startedAtMs: Int64?, completedAtMs: Int64?, actualMinutes: Int?
    public let cancellationReason: String?, createdAt: String, cancelledAtMs: Int64?
    /// The patient's species, which the embedded store keeps on the appointment for analytics.
    public let patientSpecies: String

    enum CodingKeys: String, CodingKey {
        case id
        case patientID = "patient_id"
        case clinicianID = "clinician_id"
        case appointmentTypeID = "appointment_type_id"
        case roomType = "room_type"
        case roomID = "room_id"
        case startMs = "start_ms"
        case endMs = "end_ms"
        case occupiedEndMs = "occupied_end_ms"
        case status
        case holdsTime = "holds_time"
        case checkedInAtMs = "checked_in_at_ms"
        case startedAtMs = "started_at_ms"
        case completedAtMs = "completed_at_ms"
        case actualMinutes = "actual_minutes"
        case cancellationReason = "cancellation_reason"
        case createdAt = "created_at"
        case cancelledAtMs = "cancelled_at_ms"
        case patientSpecies = "patient_species"
    }

    init(_ record: AppointmentRecord, species: Species, bookedAt: Date) {
        let appointment = record.appointment
        id = appointment.id.rawValue
        patientID = appointment.patientID
        clinicianID = appointment.clinicianID
        appointmentTypeID = appointment.appointmentTypeID.rawValue
        roomType = appointment.roomType?.rawValue
        roomID = appointment.roomID?.rawValue
        startMs = Timestamp.milliseconds(appointment.time.start)
        endMs = Timestamp.milliseconds(appointment.time.end)
        occupiedEndMs = Timestamp.milliseconds(appointment.occupiedTime.end)
        status = appointment.status.rawValue
        holdsTime = appointment.status.holdsTime
        checkedInAtMs = appointment.checkedInAt.map(Timestamp.milliseconds)
        startedAtMs = appointment.startedAt.map(Timestamp.milliseconds)
        completedAtMs = appointment.completedAt.map(Timestamp.milliseconds)
        actualMinutes = appointment.actualMinutes
        cancellationReason = appointment.cancellationReason
        createdAt = Timestamp.string(bookedAt)
        // A cancellation time means nothing on an appointment that was not cancelled.
        cancelledAtMs = appointment.status == .cancelled ? record.cancelledAt.map(Timestamp.milliseconds) : nil
        patientSpecies = species.rawValue
    }
}

/// A past triage arrival as both stores write it (a JSON object keyed by column name).
public struct HistoryArrivalRow: Encodable, Sendable {
    public let practiceID: UUID, patientID: UUID, arrivalAtMs: Int64, level: Int, firstSeenAtMs: Int64?

    enum CodingKeys: String, CodingKey {
        case practiceID = "practice_id"
        case patientID = "patient_id"
        case arrivalAtMs = "arrival_at_ms"
        case level
        case firstSeenAtMs = "first_seen_at_ms"
    }
}

/// A past weighing as both stores write it. Its JSON object carries the two times in
/// milliseconds (`measured_at_ms`, `created_at_ms`); a store that keeps them as text converts.
public struct HistoryWeightRow: Encodable, Sendable {
    public let id: UUID, practiceID: UUID, patientID: UUID, value: String, unit: String, grams: Int
    public let measuredAt: Date, createdAt: Date

    enum CodingKeys: String, CodingKey {
        case id
        case practiceID = "practice_id"
        case patientID = "patient_id"
        case value, unit, grams
        case measuredAt = "measured_at_ms"
        case createdAt = "created_at_ms"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(practiceID, forKey: .practiceID)
        try container.encode(patientID, forKey: .patientID)
        try container.encode(value, forKey: .value)
        try container.encode(unit, forKey: .unit)
        try container.encode(grams, forKey: .grams)
        try container.encode(Timestamp.milliseconds(measuredAt), forKey: .measuredAt)
        try container.encode(Timestamp.milliseconds(createdAt), forKey: .createdAt)
    }
}

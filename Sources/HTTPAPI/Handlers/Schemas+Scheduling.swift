import Foundation
import PracticeServices
import Scheduling
import SharedKernel
import Specialists
import StoragePorts

// Conversions between scheduling values and the generated wire types.

extension Components.Schemas.Specialist {
    init(_ clinician: Clinician, version: Int? = nil) {
        self.init(
            id: clinician.id.description, displayName: clinician.displayName, credentials: clinician.credentials,
            expertise: clinician.expertise.map {
                .init(specialty: $0.specialty.rawValue, proficiency: $0.proficiency, years: $0.years)
            },
            species: clinician.species.map(\.rawValue).sorted(), maxAppointmentsPerDay: clinician.maxAppointmentsPerDay,
            complexityCeiling: clinician.complexityCeiling, userId: clinician.userID?.description,
            preferences: Components.Schemas.CaseloadPreferences(clinician.preferences), retiredAt: clinician.retiredAt,
            version: version)
    }

    init(_ stored: Versioned<Clinician>) { self.init(stored.value, version: stored.version) }
}

extension Components.Schemas.CaseloadPreferences {
    init(_ preferences: CaseloadPreferences) {
        self.init(
            preferredAppointmentTypeIds: preferences.preferredAppointmentTypeIDs.map(UUIDText.lowercase),
            maxConsecutiveSurgeryMinutes: preferences.maxConsecutiveSurgeryMinutes)
    }
}

extension CaseloadPreferences {
    /// The wire form; every id must be a UUID (named by index otherwise).
    init(wire: Components.Schemas.CaseloadPreferences, field: String) throws {
        var errors = FieldErrorCollector()
        let ids = (wire.preferredAppointmentTypeIds ?? []).enumerated().compactMap { index, text -> UUID? in
            guard let id = UUIDText.parse(text) else {
                errors.add("\(field).preferredAppointmentTypeIds[\(index)]", "must be a UUID")
                return nil
            }
            return id
        }
        try errors.throwIfAny()
        self.init(preferredAppointmentTypeIDs: ids, maxConsecutiveSurgeryMinutes: wire.maxConsecutiveSurgeryMinutes)
    }
}

extension Expertise {
    /// The wire form's entries; an unknown specialty is named by index.
    static func list(wire: [Components.Schemas.ExpertiseInput], errors: inout FieldErrorCollector) -> [Expertise] {
        wire.enumerated().compactMap { index, item in
            guard let specialty = Specialty(rawValue: item.specialty) else {
                errors.add("expertise[\(index)].specialty", "'\(item.specialty)' is not a specialty")
                return nil
            }
            return Expertise(specialty: specialty, proficiency: item.proficiency, years: item.years)
        }
    }
}

extension ClinicianAvailability {
    init(wire: Components.Schemas.Availability, clinicianID: Identifier<Clinician>) throws {
        var errors = FieldErrorCollector()
        let timeOff = (wire.timeOff ?? []).enumerated().compactMap { index, item -> TimeOff? in
            guard let first = LocalDate(item.firstDay) else {
                errors.add("timeOff[\(index)].firstDay", "must be a date like 2026-12-24")
                return nil
            }
            guard let last = LocalDate(item.lastDay) else {
                errors.add("timeOff[\(index)].lastDay", "must be a date like 2026-12-24")
                return nil
            }
            return TimeOff(firstDay: first, lastDay: last, reason: item.reason)
        }
        let extra = (wire.extraSessions ?? []).enumerated().compactMap { index, item -> ExtraSession? in
            guard let date = LocalDate(item.date) else {
                errors.add("extraSessions[\(index)].date", "must be a date like 2026-12-24")
                return nil
            }
            return ExtraSession(date: date, startMinute: item.startMinute, endMinute: item.endMinute)
        }
        try errors.throwIfAny()
        let interval = { (item: Components.Schemas.WeeklyInterval) in
            WeeklyInterval(weekday: item.weekday, startMinute: item.startMinute, endMinute: item.endMinute)
        }
        self.init(
            clinicianID: clinicianID, weekly: wire.weekly.map(interval), breaks: (wire.breaks ?? []).map(interval),
            timeOff: timeOff,
            extraSessions: extra, maxBookedMinutesPerDay: wire.maxBookedMinutesPerDay)
    }
}

extension Components.Schemas.Availability {
    init(_ availability: ClinicianAvailability) {
        let interval = { (item: WeeklyInterval) in
            Components.Schemas.WeeklyInterval(
                weekday: item.weekday, startMinute: item.startMinute, endMinute: item.endMinute)
        }
        self.init(
            weekly: availability.weekly.map(interval), breaks: availability.breaks.map(interval),
            timeOff: availability.timeOff.map {
                .init(firstDay: $0.firstDay.description, lastDay: $0.lastDay.description, reason: $0.reason)
            },
            extraSessions: availability.extraSessions.map {
                .init(date: $0.date.description, startMinute: $0.startMinute, endMinute: $0.endMinute)
            },
            maxBookedMinutesPerDay: availability.maxBookedMinutesPerDay)
    }
}

extension Components.Schemas.Room {
    init(_ room: Room) {
        self.init(
            id: room.id.description, name: room.name, _type: .init(rawValue: room.type.rawValue)!, active: room.isActive
        )
    }
}

extension Components.Schemas.AppointmentType {
    init(_ type: AppointmentType) {
        self.init(
            id: type.id.description, name: type.name, defaultDurationMinutes: type.defaultDurationMinutes,
            bufferAfterMinutes: type.bufferAfterMinutes,
            requiredSpecialty: type.requiredSpecialty?.rawValue,
            requiredRoomType: type.requiredRoomType.map { .init(rawValue: $0.rawValue)! },
            feeMinorUnits: type.fee.minorUnits, currency: type.fee.currency, retiredAt: type.retiredAt)
    }
}

extension Components.Schemas.Slot {
    init(_ slot: FreeSlot, snapshot: SchedulingService.Snapshot) {
        self.init(
            clinicianId: UUIDText.lowercase(slot.clinicianID),
            clinicianName: snapshot.clinician(slot.clinicianID)?.displayName,
            start: slot.start, end: slot.end)
    }
}

extension Components.Schemas.Appointment {
    init(_ stored: Versioned<Appointment>) {
        let appointment = stored.value
        self.init(
            id: appointment.id.description, patientId: UUIDText.lowercase(appointment.patientID),
            clinicianId: UUIDText.lowercase(appointment.clinicianID),
            appointmentTypeId: appointment.appointmentTypeID.description,
            roomId: appointment.roomID?.description, start: appointment.time.start, end: appointment.time.end,
            bufferAfterMinutes: appointment.bufferAfterMinutes, status: .init(rawValue: appointment.status.rawValue)!,
            actualMinutes: appointment.actualMinutes, cancellationReason: appointment.cancellationReason,
            version: stored.version,
            allowedActions: appointment.status.allowedActions.map { .init(rawValue: $0.rawValue)! },
            statusFacts: .init(
                open: appointment.status.isOpen, awaitingVisit: appointment.status.isAwaitingVisit,
                attended: appointment.status.isAttended, holdsTime: appointment.status.holdsTime))
    }

    init(_ details: AppointmentDetails) {
        self.init(details.appointment)
        reason = details.reason
        staffNotes = details.staffNotes
        intake = details.basis.map(Components.Schemas.BookingBasis.init)
        visitId = details.visitID
    }
}

extension Components.Schemas.BookingBasis {
    init(_ basis: BookingBasis) {
        let colours = ["red", "orange", "yellow", "green", "blue"]
        self.init(
            assessmentId: UUIDText.lowercase(basis.assessmentID), level: basis.triageLevel,
            colour: (1...5).contains(basis.triageLevel) ? colours[basis.triageLevel - 1] : "unknown",
            rankedPosition: basis.rankedPosition, score: basis.score,
            reasons: basis.reasons.map { .init(factor: $0.factor, contribution: $0.contribution, detail: $0.detail) })
    }
}

extension Components.Schemas.BookingConflict {
    init(_ unavailable: SlotUnavailable) {
        self.init(
            _type: "https://vetnet.dev/problems/409", title: "Conflict", status: 409, detail: unavailable.detail,
            requestId: RequestState.requestID,
            conflictingStart: unavailable.conflictingTime?.start, conflictingEnd: unavailable.conflictingTime?.end,
            alternatives: unavailable.alternatives.map {
                .init(clinicianId: UUIDText.lowercase($0.clinicianID), start: $0.start, end: $0.end)
            })
    }
}

extension Components.Schemas.RankedClinician {
    init(_ match: ClinicianMatch) {
        self.init(
            clinicianId: match.clinicianID.description, displayName: match.displayName, score: match.score,
            earliestStart: match.earliestStart,
            withinMaxWait: match.withinMaxWait,
            parts: match.parts.map {
                .init(
                    factor: $0.factor.rawValue, weight: $0.weight, value: $0.value, contribution: $0.contribution,
                    detail: $0.detail)
            })
    }
}

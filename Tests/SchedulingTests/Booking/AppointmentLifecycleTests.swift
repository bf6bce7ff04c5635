import Foundation
import Scheduling
import SharedKernel
import Testing

@Suite("Appointment lifecycle")
struct AppointmentLifecycleTests {
    static let start = BookingFixture.at("2026-06-10T09:00:00Z")
    static let later = TimeRange(
        start: BookingFixture.at("2026-06-11T10:00:00Z"), end: BookingFixture.at("2026-06-11T10:30:00Z"))!

    static let commands: [AppointmentCommand] = [
        .reschedule(to: later, clinicianID: nil), .checkIn, .start, .complete(actualMinutes: nil),
        .cancel(reason: "owner unwell"), .markNoShow,
    ]

    static let legal: Set<String> = [
        "booked→booked", "booked→checked_in", "booked→cancelled", "booked→no_show",
        "checked_in→in_progress", "checked_in→cancelled", "in_progress→completed",
    ]

    private static func appointment(_ status: AppointmentStatus) -> Appointment {
        var appointment = BookingFixture.booking(1, "2026-06-10T09:00:00Z", "2026-06-10T09:30:00Z")
        appointment.status = status
        if status == .inProgress { appointment.startedAt = start }
        return appointment
    }

    @Test(
        "every status × command pair: only the documented transitions are legal",
        arguments: AppointmentStatus.allCases, commands)
    func table(status: AppointmentStatus, command: AppointmentCommand) throws {
        let key = "\(status.rawValue)→\(command.targetStatus.rawValue)"
        // Late enough for a no-show, early enough to reschedule into tomorrow.
        let now = BookingFixture.at("2026-06-10T09:20:00Z")
        let result = Result { () throws(AppointmentLifecycleError) in
            try Self.appointment(status).decide(command, at: now)
        }
        switch result {
        case .success(let decision):
            #expect(Self.legal.contains(key), "\(key) was allowed")
            #expect(decision.current.status == command.targetStatus)
            #expect(decision.previous?.status == status)
        case .failure(let error):
            #expect(!Self.legal.contains(key), "\(key) was refused: \(error)")
            #expect(error == .illegalTransition(from: status, to: command.targetStatus))
            #expect(error.domainError != nil)
        }
        #expect(AppointmentStatus.legalTransitions.count == Self.legal.count)
    }

    @Test("a cancellation needs a non-blank reason", arguments: ["", "   ", "\n"])
    func reasonRequired(reason: String) {
        #expect(
            throws: AppointmentLifecycleError.invalid(
                ValidationError(field: "reason", message: "a cancellation needs a reason"))
        ) {
            try Self.appointment(.booked).decide(.cancel(reason: reason), at: Self.start)
        }
    }

    @Test(
        "a no-show is only recorded from the scheduled start on",
        arguments: [(-60.0, false), (0.0, true), (600.0, true)])
    func noShowTiming(offset: TimeInterval, allowed: Bool) {
        let result = Result { () throws(AppointmentLifecycleError) in
            try Self.appointment(.booked).decide(.markNoShow, at: Self.start.addingTimeInterval(offset))
        }
        switch result {
        case .success: #expect(allowed)
        case .failure(let error): #expect(!allowed && error == .noShowBeforeStart(scheduledStart: Self.start))
        }
    }

    @Test(
        "completion records the actual duration, rounded up to whole minutes",
        arguments: [
            (1210.0, nil, 21), (1200.0, nil, 20), (5.0, nil, 1), (600.0, 25, 25),
        ] as [(TimeInterval, Int?, Int)])
    func completion(elapsed: TimeInterval, given: Int?, minutes: Int) throws {
        var appointment = Self.appointment(.inProgress)
        let decision = try appointment.handle(
            .complete(actualMinutes: given), at: Self.start.addingTimeInterval(elapsed))
        #expect(appointment.actualMinutes == minutes)
        #expect(decision.events(occurredAt: Self.start).first?.payload["actualMinutes"] == String(minutes))
    }

    @Test("rescheduling to the past or to the same time is refused")
    func badReschedule() {
        let appointment = Self.appointment(.booked)
        #expect(throws: AppointmentLifecycleError.self) {
            try appointment.decide(
                .reschedule(to: appointment.time, clinicianID: nil), at: BookingFixture.at("2026-06-01T00:00:00Z"))
        }
        #expect(throws: AppointmentLifecycleError.self) {
            try appointment.decide(
                .reschedule(to: Self.later, clinicianID: nil), at: BookingFixture.at("2026-06-12T00:00:00Z"))
        }
    }

    @Test("a full visit publishes booked, checked_in, started, completed in order; a move carries the old time")
    func events() throws {
        let now = BookingFixture.at("2026-06-01T12:00:00Z")
        let booked = try Appointment.book(
            practiceID: BookingFixture.practiceID, patientID: UUID(), clinicianID: BookingFixture.clinician(1),
            type: BookingFixture.consult, start: Self.start, now: now)
        var appointment = booked.current
        #expect(
            appointment.roomType == .exam && appointment.bufferAfterMinutes == 5 && appointment.durationMinutes == 20)
        var kinds = [booked.eventKind]
        let moved = try appointment.handle(
            .reschedule(to: Self.later, clinicianID: BookingFixture.clinician(2)), at: now)
        #expect(moved.events(occurredAt: now).first?.payload["previousStart"] == Timestamp.string(Self.start))
        #expect(
            moved.events(occurredAt: now).first?.payload["previousClinicianID"]
                == BookingFixture.clinician(1).uuidString.lowercased())
        kinds.append(moved.eventKind)
        for command in [AppointmentCommand.checkIn, .start, .complete(actualMinutes: 18)] {
            kinds.append(try appointment.handle(command, at: Self.later.start).eventKind)
        }
        #expect(
            kinds == [
                "appointment.booked", "appointment.moved", "appointment.checked_in", "appointment.started",
                "appointment.completed",
            ])
        let event = try #require(booked.events(occurredAt: now).first)
        #expect(event.practiceID == BookingFixture.practiceID && event.resourceID == appointment.id.description)
        #expect(event.payload["status"] == "booked")
    }

    @Test("cancelling and no-shows publish their events without the reason")
    func cancelEvents() throws {
        let cancelled = try Self.appointment(.booked).decide(.cancel(reason: "  pyometra suspected  "), at: Self.start)
        #expect(cancelled.current.cancellationReason == "pyometra suspected")
        #expect(cancelled.eventKind == AppointmentEventKind.cancelled)
        #expect(
            cancelled.events(occurredAt: Self.start).first?.payload.values.contains { $0.contains("pyometra") } == false
        )
        #expect(try Self.appointment(.booked).decide(.markNoShow, at: Self.start).eventKind == "appointment.no_show")
    }

    @Test("booking checks duration and refuses a start more than five minutes past")
    func bookingValidation() {
        do {
            _ = try Appointment.book(
                practiceID: BookingFixture.practiceID, patientID: UUID(), clinicianID: BookingFixture.clinician(1),
                type: BookingFixture.consult, start: Self.start, durationMinutes: 0,
                now: Self.start.addingTimeInterval(Appointment.lateStartGraceSeconds + 1))
            Issue.record("accepted")
        } catch {
            #expect(error.errors.map(\.field) == ["durationMinutes", "start"])
        }
    }

    @Test("a slot offered a moment ago is still bookable after it has begun, as a walk-in at the desk")
    func lateStartGrace() throws {
        let booked = try Appointment.book(
            practiceID: BookingFixture.practiceID, patientID: UUID(), clinicianID: BookingFixture.clinician(1),
            type: BookingFixture.consult, start: Self.start, now: Self.start.addingTimeInterval(299))
        #expect(booked.current.time.start == Self.start)
        let moved = try Self.appointment(.booked).decide(
            .reschedule(to: Self.later, clinicianID: nil),
            at: Self.later.start.addingTimeInterval(Appointment.lateStartGraceSeconds))
        #expect(moved.current.time == Self.later)
    }

    @Test(
        "what a client offers for each status is exactly what the lifecycle accepts",
        arguments: AppointmentStatus.allCases)
    func allowedActionsAreAccepted(status: AppointmentStatus) {
        let expected: [AppointmentStatus: [AppointmentAction]] = [
            .booked: [.checkIn, .reschedule, .cancel, .noShow], .checkedIn: [.start, .cancel], .inProgress: [.complete],
            .completed: [], .cancelled: [], .noShow: [],
        ]
        #expect(status.allowedActions == expected[status])
        let commands: [AppointmentAction: AppointmentCommand] = [
            .checkIn: .checkIn, .start: .start, .complete: .complete(actualMinutes: 10),
            .reschedule: .reschedule(to: Self.later, clinicianID: nil),
            .cancel: .cancel(reason: "owner called"), .noShow: .markNoShow,
        ]
        for action in AppointmentAction.allCases {
            let command = commands[action]!
            #expect(command.action == action)
            let accepted =
                (try? Self.appointment(status).decide(command, at: BookingFixture.at("2026-06-10T09:05:00Z"))) != nil
            #expect(accepted == status.allowedActions.contains(action), "\(status) \(action)")
        }
    }
}

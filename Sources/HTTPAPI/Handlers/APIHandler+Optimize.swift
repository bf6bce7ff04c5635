import Foundation
import PracticeServices
import Scheduling
import SharedKernel
import Specialists
import StoragePorts
import Triage

extension APIHandler {
    func optimizeSchedule(_ input: Operations.OptimizeSchedule.Input) async throws -> Operations.OptimizeSchedule.Output
    {
        guard case .json(let body) = input.body else {
            throw APIError.badRequest(field: "body", message: "must be JSON")
        }
        // Applying books appointments: the caller needs what booking needs, checked before anything is written.
        let caller = try await authorize(
            all: body.apply == true ? Permission.applyOptimizedPlan : [.optimizeSchedule],
            action: .scheduleOptimize, resourceType: .appointment,
            refusal: body.apply == true ? "book the optimizer's plan" : nil)
        let now = store.clock.now()
        let range = TimeRange(start: body.from, end: body.from.addingTimeInterval(Double(body.days) * 86_400))!
        let snapshot = try await scheduling.snapshot(scope: caller.scope, range: range)

        let seconds = body.timeLimitSeconds ?? 2
        // The whole call, history and problem included, runs as the practice's only optimization.
        return try await optimizations.run(for: caller.scope.practiceID, limit: .milliseconds(Int(seconds * 1000))) {
            try await optimize(body, caller: caller, snapshot: snapshot, now: now, seconds: seconds)
        }
    }

    /// Builds the problem from the requests, solves it within `seconds`, and books the plan when asked.
    private func optimize(
        _ body: Components.Schemas.OptimizeRequest, caller: Caller, snapshot: SchedulingService.Snapshot, now: Date,
        seconds: Double
    ) async throws -> Operations.OptimizeSchedule.Output {
        // The limit counts from the request's arrival: reading a large body is part of the call.
        let started = RequestState.receivedAt
        let origin = PracticeProblem(snapshot: snapshot, from: body.from, days: body.days, requests: []).origin
        let minute = { (date: Date) in Int((date.timeIntervalSince(origin) / 60).rounded(.up)) }
        let nowMinute = (max(minute(now), 0) + 4) / 5 * 5
        // The practice's history is read once for every request's predicted length.
        let predictor = DurationPredictor(history: try await scheduling.completedVisits(scope: caller.scope))
        var errors = FieldErrorCollector()
        var requests: [SchedulingRequest] = []
        var patients: [String: (UUID, AppointmentType)] = [:]
        for (index, item) in body.requests.enumerated() {
            let field = "requests[\(index)]"
            guard let type = snapshot.types.first(where: { $0.id.description == item.appointmentTypeId.lowercased() })
            else {
                errors.add("\(field).appointmentTypeId", "is not an appointment type of this practice")
                continue
            }
            guard let patient = UUIDText.parse(item.patientId) else {
                errors.add("\(field).patientId", "must be a UUID")
                continue
            }
            if patients[item.reference] != nil {
                errors.add("\(field).reference", "is used by another request")
                continue
            }
            let duration = predictor.predict(type: type, species: .other, clinicianID: nil).minutes
            let (urgency, weight) = PracticeProblem.urgency(forLevel: item.triageLevel)
            let earliest = max(item.earliestStart.map(minute) ?? nowMinute, nowMinute)
            let maxWait = (TriageLevel(rawValue: min(max(item.triageLevel, 1), 5)) ?? .blue).maxWaitMinutes
            let deadline = max(item.deadline.map(minute) ?? earliest + maxWait, earliest)
            let preferred = MinuteInterval(
                start: item.preferredStart.map(minute) ?? earliest,
                end: item.preferredEnd.map(minute) ?? max(deadline + duration, earliest + duration))
            patients[item.reference] = (patient, type)
            requests.append(
                SchedulingRequest(
                    id: item.reference, specialty: type.requiredSpecialty?.rawValue ?? PracticeProblem.anySpecialty,
                    duration: duration, urgency: urgency, weight: weight,
                    roomType: type.requiredRoomType?.rawValue ?? PracticeProblem.noRoom, earliestStart: earliest,
                    deadline: deadline, preferredWindow: preferred))
        }
        try errors.throwIfAny()
        let built = PracticeProblem(snapshot: snapshot, from: body.from, days: body.days, requests: requests)
        // The limit covers the whole call: what reading the request and building the problem
        // took is not the search's, and a tenth is kept for answering (the plan, its encoding).
        let limit = Duration.milliseconds(Int(seconds * 1000))
        let left = limit - limit / 10 - (ContinuousClock.now - started)
        // One search worker fewer than the cores, so requests keep a core while it runs.
        let options = OptimizerOptions(workers: max(1, ProcessInfo.processInfo.activeProcessorCount - 1))
        let result = try await ScheduleOptimizer.solve(
            built.problem, timeLimit: max(left, .milliseconds(50)), seed: UInt64(max(body.seed ?? 0, 0)),
            options: options)
        var plan: [Components.Schemas.PlannedAppointment] = []
        let requestsByID = Dictionary(requests.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for assignment in result.assignments {
            guard let request = requestsByID[assignment.requestID],
                let clinicianID = UUIDText.parse(assignment.clinicianID)
            else { continue }
            var planned = Components.Schemas.PlannedAppointment(
                reference: assignment.requestID, clinicianId: assignment.clinicianID,
                clinicianName: snapshot.clinician(clinicianID)?.displayName,
                start: built.date(assignment.start), end: built.date(assignment.start + request.duration),
                onTime: assignment.start <= request.deadline)
            if body.apply == true, let (patient, type) = patients[assignment.requestID] {
                do {
                    let booked = try await scheduling.book(
                        scope: caller.scope, patientID: patient, clinicianID: clinicianID, typeID: type.id,
                        start: planned.start, durationMinutes: request.duration, reason: "planned by the optimizer",
                        idempotencyKey: nil)
                    planned.appointmentId = booked.value.id.description
                } catch let unavailable as SlotUnavailable {
                    planned.bookingError = unavailable.detail
                } catch let error as ValidationError {
                    planned.bookingError = error.description
                }
            }
            plan.append(planned)
        }
        let booked = plan.filter { $0.appointmentId != nil }.count
        if booked > 0 {
            try await store.recordEvents(
                [
                    DomainEvent(
                        practiceID: caller.account.practiceID, kind: ScheduleEventKind.optimized,
                        occurredAt: store.clock.now(),
                        resourceType: .schedule,
                        payload: [
                            "from": Timestamp.string(body.from), "days": String(body.days), "booked": String(booked),
                        ])
                ],
                scope: caller.scope)
        }
        try await auditRead(
            caller, action: .scheduleOptimize, resourceType: .appointment,
            detail: "requests=\(requests.count) fixed=\(snapshot.appointments.count) apply=\(body.apply == true)")
        let assigned = Set(result.assignments.map(\.requestID))
        return .ok(
            .init(
                body: .json(
                    .init(
                        score: result.evaluation.score, assigned: assigned.count,
                        unassigned: requests.map(\.id).filter { !assigned.contains($0) },
                        onTime: result.evaluation.onTime,
                        elapsedMilliseconds: Int(
                            result.elapsed.components.seconds * 1000 + result.elapsed.components.attoseconds
                                / 1_000_000_000_000_000),
                        plan: plan.sorted { $0.start < $1.start }))))
    }

    func replanDay(_ input: Operations.ReplanDay.Input) async throws -> Operations.ReplanDay.Output {
        guard case .json(let body) = input.body else {
            throw APIError.badRequest(field: "body", message: "must be JSON")
        }
        // Applying moves appointments and writes time off into the clinician's availability, so it
        // needs the permissions of both changes, checked before either is made; a preview does not.
        let caller = try await authorize(
            all: body.apply == true ? Permission.applyReplan : [.optimizeSchedule],
            action: .scheduleReplan, resourceType: .clinician, resourceID: body.clinicianId,
            refusal: body.apply == true
                ? "apply a re-plan, which moves appointments and changes clinician availability" : nil)
        guard let absent = UUIDText.parse(body.clinicianId) else {
            throw ValidationError(field: "clinicianId", message: "must be a UUID")
        }
        guard let day = LocalDate(body.date) else {
            throw ValidationError(field: "date", message: "must be a date like 2026-11-23")
        }
        let practice = try await store.practice(scope: caller.scope)
        let calendar = PracticeCalendar(timeZone: TimeZone(identifier: practice.timeZone) ?? .gmt)
        guard let dayRange = calendar.day(year: day.year, month: day.month, day: day.day) else {
            throw ValidationError(field: "date", message: "is not a day")
        }
        let snapshot = try await scheduling.snapshot(scope: caller.scope, range: dayRange)
        guard snapshot.clinician(absent) != nil else { throw DomainError.notFound(resource: "clinician") }
        let now = store.clock.now()
        let maxDelay = body.maxDelayMinutes ?? 60
        // Only appointments still merely booked can move; the rest of the day stays fixed. One
        // that a closure added after it was booked now covers cannot stay where it is nor move
        // within the day's open time: it is reported for re-planning on another day.
        // A retired clinician's bookings are not moved here (their retirement listed them for
        // the practice to re-plan one by one); they stay fixed.
        let open = snapshot.appointments.filter {
            $0.status == .booked && $0.time.start >= max(now, dayRange.start) && $0.time.start < dayRange.end
                && snapshot.clinician($0.clinicianID) != nil
        }
        let closures = snapshot.practice.closures
        let inClosure = { (appointment: Appointment) in
            !closures.closedIntervals(overlapping: appointment.time, timeZone: snapshot.timeZone).isEmpty
        }
        let movable = open.filter { !inClosure($0) }
        let closedIn = open.filter { inClosure($0) && $0.clinicianID == absent }
        let origin = dayRange.start
        let minute = { (date: Date) in Int((date.timeIntervalSince(origin) / 60).rounded(.down)) }
        let nowMinute = (max(minute(now), 0) + 4) / 5 * 5
        let requests = movable.map { appointment -> SchedulingRequest in
            let type = snapshot.types.first { $0.id == appointment.appointmentTypeID }
            let start = minute(appointment.time.start)
            return SchedulingRequest(
                id: appointment.id.description,
                specialty: type?.requiredSpecialty?.rawValue ?? PracticeProblem.anySpecialty,
                duration: appointment.durationMinutes + appointment.bufferAfterMinutes, urgency: 3, weight: 3,
                roomType: appointment.roomType?.rawValue ?? PracticeProblem.noRoom,
                earliestStart: min(nowMinute, start),
                deadline: start + maxDelay,
                preferredWindow: MinuteInterval(start: start, end: start + appointment.durationMinutes))
        }
        let built = PracticeProblem(
            snapshot: snapshot, from: dayRange.start, days: 1, requests: requests, excluding: Set(movable.map(\.id)))
        let assignments = movable.map {
            SchedulingAssignment(
                requestID: $0.id.description, clinicianID: Identifier<Clinician>($0.clinicianID).description,
                start: minute($0.time.start))
        }
        let result = try ScheduleReplanner.clinicianUnavailable(
            built.problem, assignments: assignments, clinicianID: Identifier<Clinician>(absent).description, day: 0)
        var moved: [Components.Schemas.ReplanResponse.MovedPayloadPayload] = []
        for move in result.moves {
            guard let appointmentID = Identifier<Appointment>(uuidString: move.from.requestID),
                let to = UUIDText.parse(move.to.clinicianID),
                let original = movable.first(where: { $0.id == appointmentID })
            else { continue }
            let newStart = built.date(move.to.start)
            var applied = false
            if body.apply == true {
                let time = TimeRange(start: newStart, end: newStart.addingTimeInterval(original.time.duration))!
                applied =
                    (try? await scheduling.transition(
                        scope: caller.scope, id: appointmentID, command: .reschedule(to: time, clinicianID: to),
                        expectedVersion: nil)) != nil
            }
            moved.append(
                .init(
                    appointmentId: move.from.requestID, fromClinicianId: UUIDText.lowercase(original.clinicianID),
                    toClinicianId: move.to.clinicianID, fromStart: original.time.start, toStart: newStart,
                    applied: applied))
        }
        if body.apply == true, var availability = snapshot.availabilities[Identifier(absent)] {
            availability.value.timeOff.append(TimeOff(firstDay: day, lastDay: day, reason: "unavailable (re-planned)"))
            _ = try? await store.setAvailability(
                availability.value, scope: caller.scope, expectedVersion: availability.version)
        }
        let applied = moved.filter(\.applied).count
        if body.apply == true {
            try await store.recordEvents(
                [
                    DomainEvent(
                        practiceID: caller.account.practiceID, kind: ScheduleEventKind.replanned,
                        occurredAt: store.clock.now(),
                        resourceType: .schedule, resourceID: UUIDText.lowercase(absent),
                        payload: [
                            "clinicianID": UUIDText.lowercase(absent), "date": body.date, "moved": String(applied),
                        ])
                ],
                scope: caller.scope)
        }
        try await auditRead(
            caller, action: .scheduleReplan, resourceType: .clinician, resourceID: UUIDText.lowercase(absent),
            detail: "date=\(body.date) moved=\(moved.count) apply=\(body.apply == true)")
        let unplaced =
            result.unplaced.map {
                Components.Schemas.ReplanResponse.UnplacedPayloadPayload(
                    appointmentId: $0.assignment.requestID, reason: $0.reason.rawValue)
            }
            + closedIn.map { .init(appointmentId: $0.id.description, reason: "practice_closed") }
        return .ok(.init(body: .json(.init(moved: moved, unplaced: unplaced))))
    }
}

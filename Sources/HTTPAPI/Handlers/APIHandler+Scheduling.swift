import Crypto
import Foundation
import OpenAPIRuntime
import PracticeServices
import Scheduling
import SharedKernel
import Specialists
import StoragePorts

extension APIHandler {
    var scheduling: SchedulingService { SchedulingService(store: store, clock: store.clock) }

    // MARK: - Clinicians and availability

    func getAvailability(_ input: Operations.GetAvailability.Input) async throws -> Operations.GetAvailability.Output {
        let caller = try await authorize(
            .readRecords, action: .clinicianAvailabilityRead, resourceType: .clinician,
            resourceID: input.path.clinicianId)
        let id: Identifier<Clinician> = try Self.identifier(input.path.clinicianId, resource: "clinician")
        guard try await store.clinicians(scope: caller.scope).contains(where: { $0.id == id }) else {
            throw DomainError.notFound(resource: "clinician")
        }
        let stored =
            try await store.availabilities(scope: caller.scope)[id]
            ?? Versioned(ClinicianAvailability(clinicianID: id, weekly: []), version: 0)
        return .ok(.init(headers: .init(eTag: Self.etag(stored.version)), body: .json(.init(stored.value))))
    }

    func setAvailability(_ input: Operations.SetAvailability.Input) async throws -> Operations.SetAvailability.Output {
        let caller = try await authorize(
            .manageSchedule, action: .clinicianAvailabilityUpdate, resourceType: .clinician,
            resourceID: input.path.clinicianId)
        guard case .json(let body) = input.body else {
            throw APIError.badRequest(field: "body", message: "must be JSON")
        }
        let availability = try ClinicianAvailability(
            wire: body, clinicianID: try Self.identifier(input.path.clinicianId, resource: "clinician"))
        let stored = try await store.setAvailability(
            availability, scope: caller.scope, expectedVersion: try Self.expectedVersion(input.headers.ifMatch))
        return .ok(.init(headers: .init(eTag: Self.etag(stored.version)), body: .json(.init(stored.value))))
    }

    // MARK: - Calendar feeds

    func createCalendarFeed(_ input: Operations.CreateCalendarFeed.Input) async throws
        -> Operations.CreateCalendarFeed.Output
    {
        let caller = try await authorize(
            .manageSchedule, action: .clinicianCalendarFeedCreate, resourceType: .clinician,
            resourceID: input.path.clinicianId)
        let token = SessionToken.generate()
        try await store.createCalendarFeed(
            tokenHash: SessionToken.hash(token),
            clinicianID: try Self.identifier(input.path.clinicianId, resource: "clinician"),
            scope: caller.scope)
        return .created(.init(body: .json(.init(url: "/calendar/\(token)"))))
    }

    func revokeCalendarFeeds(_ input: Operations.RevokeCalendarFeeds.Input) async throws
        -> Operations.RevokeCalendarFeeds.Output
    {
        let caller = try await authorize(
            .manageSchedule, action: .clinicianCalendarFeedRevoke, resourceType: .clinician,
            resourceID: input.path.clinicianId)
        try await store.revokeCalendarFeeds(
            clinicianID: try Self.identifier(input.path.clinicianId, resource: "clinician"), scope: caller.scope)
        return .noContent(.init())
    }

    func getCalendarFeed(_ input: Operations.GetCalendarFeed.Input) async throws -> Operations.GetCalendarFeed.Output {
        guard
            let (practiceID, clinicianID) = try await store.calendarFeed(tokenHash: SessionToken.hash(input.path.token))
        else {
            throw DomainError.notFound(resource: "calendar")
        }
        let scope = AccessScope.system(practiceID, requestID: RequestState.requestID)
        let now = store.clock.now()
        let range = TimeRange(start: now.addingTimeInterval(-30 * 86_400), end: now.addingTimeInterval(90 * 86_400))!
        let appointments = try await store.appointments(
            scope: scope, overlapping: range, clinicianID: clinicianID.rawValue
        ).map(\.value)
        let names = try await store.patientNames(ids: appointments.map(\.patientID), scope: scope)
        let types = Dictionary(
            try await store.appointmentTypes(scope: scope).map { ($0.id, $0.name) },
            uniquingKeysWith: { first, _ in first })
        let rooms = Dictionary(
            try await store.rooms(scope: scope).map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let clinician = try await store.clinicians(scope: scope).first { $0.id == clinicianID }
        let events = appointments.map {
            ICalendarEvent(
                appointment: $0, patientName: names[$0.patientID] ?? "Patient",
                appointmentTypeName: types[$0.appointmentTypeID] ?? "Appointment",
                roomName: $0.roomID.flatMap { rooms[$0] })
        }
        try await store.recordAudit(
            AuditRecord(
                action: .clinicianCalendarFeedRead, resourceType: .clinician, resourceID: clinicianID.description),
            scope: scope)
        let text = ICalendarFeed.render(
            calendarName: clinician?.displayName ?? "VetNet", events: events, generatedAt: now)
        return .ok(.init(body: .textCalendar(HTTPBody(text))))
    }

    // MARK: - Rooms and types

    func listRooms(_ input: Operations.ListRooms.Input) async throws -> Operations.ListRooms.Output {
        let caller = try await authorize(.readRecords, action: .roomList, resourceType: .room)
        return .ok(
            .init(
                body: .json(.init(items: try await store.rooms(scope: caller.scope).map(Components.Schemas.Room.init))))
        )
    }

    func createRoom(_ input: Operations.CreateRoom.Input) async throws -> Operations.CreateRoom.Output {
        let caller = try await authorize(.manageSchedule, action: .roomCreate, resourceType: .room)
        guard case .json(let body) = input.body else {
            throw APIError.badRequest(field: "body", message: "must be JSON")
        }
        guard let roomType = RoomType(rawValue: body._type.rawValue) else {
            throw ValidationError(field: "type", message: "is not a room type")
        }
        let room = try await store.createRoom(Room(name: body.name, type: roomType), scope: caller.scope)
        return .created(.init(body: .json(.init(room))))
    }

    func listAppointmentTypes(_ input: Operations.ListAppointmentTypes.Input) async throws
        -> Operations.ListAppointmentTypes.Output
    {
        let caller = try await authorize(.readRecords, action: .appointmentTypeList, resourceType: .appointmentType)
        return .ok(
            .init(
                body: .json(
                    .init(
                        items: try await store.appointmentTypes(scope: caller.scope).map(
                            Components.Schemas.AppointmentType.init)))))
    }

    func createAppointmentType(_ input: Operations.CreateAppointmentType.Input) async throws
        -> Operations.CreateAppointmentType.Output
    {
        let caller = try await authorize(
            .manageSchedule, action: .appointmentTypeCreate, resourceType: .appointmentType)
        guard case .json(let body) = input.body else {
            throw APIError.badRequest(field: "body", message: "must be JSON")
        }
        var specialty: Specialty?
        let practice = try await store.practice(scope: caller.scope)
        if let text = body.requiredSpecialty {
            specialty = Specialty(rawValue: text)
            guard let specialty else {
                throw ValidationError(field: "requiredSpecialty", message: "'\(text)' is not a specialty")
            }
            guard practice.offers(specialty) else {
                throw ValidationError(
                    field: "requiredSpecialty",
                    message: "is not among the services the practice offers (its settings list them)")
            }
        }
        // A type that states no buffer gets the practice's default.
        let type = AppointmentType(
            name: body.name, defaultDurationMinutes: body.defaultDurationMinutes,
            bufferAfterMinutes: body.bufferAfterMinutes ?? practice.defaultBufferMinutes,
            requiredSpecialty: specialty,
            requiredRoomType: body.requiredRoomType.flatMap { RoomType(rawValue: $0.rawValue) },
            fee: Money(minorUnits: body.feeMinorUnits ?? 0, currency: body.currency ?? "GBP"))
        return .created(.init(body: .json(.init(try await store.createAppointmentType(type, scope: caller.scope)))))
    }

    func updateAppointmentType(_ input: Operations.UpdateAppointmentType.Input) async throws
        -> Operations.UpdateAppointmentType.Output
    {
        let caller = try await authorize(
            .manageSchedule, action: .appointmentTypeUpdate, resourceType: .appointmentType,
            resourceID: input.path.typeId)
        guard case .json(let body) = input.body, let raw = RequestState.jsonBody,
            let fields = try? JSONSerialization.jsonObject(with: Data(raw)) as? [String: Any]
        else {
            throw APIError.badRequest(field: "body", message: "must be a JSON object")
        }
        let id: Identifier<AppointmentType> = try Self.identifier(input.path.typeId, resource: "appointment type")
        var change = AppointmentTypeChange(
            name: body.name, defaultDurationMinutes: body.defaultDurationMinutes,
            bufferAfterMinutes: body.bufferAfterMinutes)
        // A key sent as null removes the requirement; a key left out keeps it.
        if fields.keys.contains("requiredSpecialty") {
            if let text = body.requiredSpecialty {
                guard let specialty = Specialty(rawValue: text) else {
                    throw ValidationError(field: "requiredSpecialty", message: "'\(text)' is not a specialty")
                }
                guard try await store.practice(scope: caller.scope).offers(specialty) else {
                    throw ValidationError(
                        field: "requiredSpecialty",
                        message: "is not among the services the practice offers (its settings list them)")
                }
                change.requiredSpecialty = .some(specialty)
            } else {
                change.requiredSpecialty = .some(nil)
            }
        }
        if fields.keys.contains("requiredRoomType") {
            change.requiredRoomType = .some(body.requiredRoomType.flatMap { RoomType(rawValue: $0.rawValue) })
        }
        let fee = (body.feeMinorUnits, body.currency)
        let requested = change
        let updated = try await store.updateAppointmentType(id: id, scope: caller.scope, action: .appointmentTypeUpdate)
        { current in
            var change = requested
            if fee.0 != nil || fee.1 != nil {
                change.fee = Money(minorUnits: fee.0 ?? current.fee.minorUnits, currency: fee.1 ?? current.fee.currency)
            }
            return try current.applying(change)
        }
        return .ok(.init(body: .json(.init(updated))))
    }

    func retireAppointmentType(_ input: Operations.RetireAppointmentType.Input) async throws
        -> Operations.RetireAppointmentType.Output
    {
        let caller = try await authorize(
            .manageSchedule, action: .appointmentTypeRetire, resourceType: .appointmentType,
            resourceID: input.path.typeId)
        let id: Identifier<AppointmentType> = try Self.identifier(input.path.typeId, resource: "appointment type")
        let now = store.clock.now()
        let retired = try await store.updateAppointmentType(id: id, scope: caller.scope, action: .appointmentTypeRetire)
        { try $0.retired(at: now) }
        return .ok(.init(body: .json(.init(retired))))
    }

    func updateRoom(_ input: Operations.UpdateRoom.Input) async throws -> Operations.UpdateRoom.Output {
        let caller = try await authorize(
            .manageSchedule, action: .roomUpdate, resourceType: .room, resourceID: input.path.roomId)
        guard case .json(let body) = input.body else {
            throw APIError.badRequest(field: "body", message: "must be JSON")
        }
        let id: Identifier<Room> = try Self.identifier(input.path.roomId, resource: "room")
        let change = RoomChange(
            name: body.name, type: body._type.flatMap { RoomType(rawValue: $0.rawValue) }, isActive: body.active)
        let room = try await store.updateRoom(id: id, scope: caller.scope) { try $0.applying(change) }
        return .ok(.init(body: .json(.init(room))))
    }

    // MARK: - Slots and appointments

    func findSlots(_ input: Operations.FindSlots.Input) async throws -> Operations.FindSlots.Output {
        let caller = try await authorize(.book, action: .appointmentSlots, resourceType: .appointment)
        guard let range = TimeRange(start: input.query.from, end: input.query.to) else {
            throw ValidationError(field: "to", message: "must be after from")
        }
        guard range.duration <= 31 * 86_400 else {
            throw ValidationError(field: "to", message: "the period is at most 31 days")
        }
        let snapshot = try await scheduling.snapshot(scope: caller.scope, range: range)
        let typeID: Identifier<AppointmentType> = try Self.identifier(
            input.query.appointmentTypeId, resource: "appointment type")
        guard let type = snapshot.types.first(where: { $0.id == typeID }) else {
            throw DomainError.notFound(resource: "appointment type")
        }
        let clinicianID = try input.query.clinicianId.map { (text: String) -> UUID in
            guard let id = UUIDText.parse(text) else {
                throw ValidationError(field: "clinicianId", message: "must be a UUID")
            }
            return id
        }
        var minutes = input.query.durationMinutes ?? 0
        if input.query.durationMinutes == nil {
            minutes = try await scheduling.predictedMinutes(
                scope: caller.scope, type: type,
                species: input.query.species.flatMap { Species(rawValue: $0.rawValue) },
                clinicianID: clinicianID)
        }
        var query = SlotQuery(range: range, appointmentType: type, durationMinutes: minutes, clinicianID: clinicianID)
        query.limit = input.query.limit ?? 50
        let now = store.clock.now()
        let slots = try snapshot.finder.slots(for: query).filter { $0.start >= now }
        return .ok(
            .init(
                body: .json(
                    .init(
                        durationMinutes: minutes,
                        items: slots.prefix(query.limit ?? 50).map { Components.Schemas.Slot($0, snapshot: snapshot) }))
            ))
    }

    func listAppointments(_ input: Operations.ListAppointments.Input) async throws -> Operations.ListAppointments.Output
    {
        let caller = try await authorize(.book, action: .appointmentList, resourceType: .appointment)
        guard let range = TimeRange(start: input.query.from, end: input.query.to) else {
            throw ValidationError(field: "to", message: "must be after from")
        }
        let items = try await store.appointments(
            scope: caller.scope, overlapping: range, clinicianID: input.query.clinicianId.flatMap(UUIDText.parse))
        try await auditRead(
            caller, action: .appointmentList, resourceType: .appointment, detail: "results=\(items.count)")
        let notes = try await store.appointmentNoteCounts(scope: caller.scope, appointmentIDs: items.map(\.value.id))
        return .ok(
            .init(
                body: .json(
                    .init(
                        items: items.map { item in
                            var wire = Components.Schemas.Appointment(item)
                            wire.noteCount = notes[item.value.id] ?? 0
                            return wire
                        }))))
    }

    func bookAppointment(_ input: Operations.BookAppointment.Input) async throws -> Operations.BookAppointment.Output {
        let caller = try await authorize(.book, action: .appointmentBook, resourceType: .appointment)
        guard case .json(let body) = input.body else {
            throw APIError.badRequest(field: "body", message: "must be JSON")
        }
        var errors = FieldErrorCollector()
        let patient = UUIDText.parse(body.patientId)
        let clinician = UUIDText.parse(body.clinicianId)
        let type = Identifier<AppointmentType>(uuidString: body.appointmentTypeId)
        let assessment = body.assessmentId.flatMap(UUIDText.parse)
        if patient == nil { errors.add("patientId", "must be a UUID") }
        if clinician == nil { errors.add("clinicianId", "must be a UUID") }
        if type == nil { errors.add("appointmentTypeId", "must be a UUID") }
        if body.assessmentId != nil, assessment == nil { errors.add("assessmentId", "must be a UUID") }
        try errors.throwIfAny()
        guard let patient, let clinician, let type else {
            throw ValidationError(field: "body", message: "names no patient, clinician or type")
        }
        do {
            let stored = try await scheduling.book(
                scope: caller.scope, patientID: patient, clinicianID: clinician, typeID: type, start: body.start,
                durationMinutes: body.durationMinutes, reason: body.reason, staffNotes: body.staffNotes,
                assessmentID: assessment,
                idempotencyKey: try Self.idempotencyKey(input.headers.idempotencyKey, body: body))
            let details = try await store.appointmentDetails(scope: caller.scope, id: stored.value.id)
            return .created(.init(headers: .init(eTag: Self.etag(stored.version)), body: .json(.init(details))))
        } catch let unavailable as SlotUnavailable {
            return .conflict(.init(body: .applicationProblemJson(.init(unavailable))))
        }
    }

    func getAppointment(_ input: Operations.GetAppointment.Input) async throws -> Operations.GetAppointment.Output {
        let caller = try await authorize(
            .book, action: .appointmentRead, resourceType: .appointment, resourceID: input.path.appointmentId)
        let details = try await store.appointmentDetails(
            scope: caller.scope, id: try Self.identifier(input.path.appointmentId, resource: "appointment"))
        try await auditRead(
            caller, action: .appointmentRead, resourceType: .appointment,
            resourceID: details.appointment.value.id.description)
        return .ok(.init(headers: .init(eTag: Self.etag(details.appointment.version)), body: .json(.init(details))))
    }

    func updateAppointment(_ input: Operations.UpdateAppointment.Input) async throws
        -> Operations.UpdateAppointment.Output
    {
        let caller = try await authorize(
            .book, action: .appointmentNotesUpdate, resourceType: .appointment, resourceID: input.path.appointmentId)
        guard case .json(let body) = input.body else {
            throw APIError.badRequest(field: "body", message: "must be JSON")
        }
        let details = try await store.updateAppointmentNotes(
            scope: caller.scope, id: try Self.identifier(input.path.appointmentId, resource: "appointment"),
            reason: body.reason, staffNotes: body.staffNotes,
            expectedVersion: try Self.expectedVersion(input.headers.ifMatch))
        return .ok(.init(headers: .init(eTag: Self.etag(details.appointment.version)), body: .json(.init(details))))
    }

    func listPatientAppointments(_ input: Operations.ListPatientAppointments.Input) async throws
        -> Operations.ListPatientAppointments.Output
    {
        let caller = try await authorize(
            .readRecords, action: .patientAppointmentsRead, resourceType: .patient, resourceID: input.path.patientId)
        let patientID = try UUIDText.parse(input.path.patientId).orNotFound("patient")
        let result = try await store.patientAppointments(
            scope: caller.scope, patientID: patientID, limit: try Self.pageLimit(input.query.limit),
            before: input.query.cursor)
        return .ok(
            .init(
                body: .json(
                    .init(
                        items: result.page.items.map(Components.Schemas.Appointment.init),
                        nextCursor: result.page.nextCursor,
                        lastSeen: result.lastSeen.map { Components.Schemas.Appointment($0) },
                        next: result.next.map { Components.Schemas.Appointment($0) }))))
    }

    func transitionAppointment(_ input: Operations.TransitionAppointment.Input) async throws
        -> Operations.TransitionAppointment.Output
    {
        guard case .json(let body) = input.body else {
            throw APIError.badRequest(field: "body", message: "must be JSON")
        }
        let permission: Permission = .book
        let caller = try await authorize(
            permission, action: .event("appointment.\(body.action.rawValue)"), resourceType: .appointment,
            resourceID: input.path.appointmentId)
        let id: Identifier<Appointment> = try Self.identifier(input.path.appointmentId, resource: "appointment")
        let command: AppointmentCommand
        switch body.action {
        case .reschedule:
            guard let start = body.start else {
                throw ValidationError(field: "start", message: "is required to reschedule")
            }
            let current = try await store.appointment(scope: caller.scope, id: id).value
            let time = TimeRange(start: start, end: start.addingTimeInterval(current.time.duration))!
            command = .reschedule(to: time, clinicianID: body.clinicianId.flatMap(UUID.init(uuidString:)))
        case .checkIn: command = .checkIn
        case .start: command = .start
        case .complete: command = .complete(actualMinutes: body.actualMinutes)
        case .cancel: command = .cancel(reason: body.reason ?? "")
        case .noShow: command = .markNoShow
        }
        do {
            let stored = try await scheduling.transition(
                scope: caller.scope, id: id, command: command,
                expectedVersion: try Self.expectedVersion(input.headers.ifMatch))
            return .ok(.init(headers: .init(eTag: Self.etag(stored.version)), body: .json(.init(stored))))
        } catch let unavailable as SlotUnavailable {
            return .conflict(.init(body: .applicationProblemJson(.init(unavailable))))
        }
    }

    func getDurationModel(_ input: Operations.GetDurationModel.Input) async throws -> Operations.GetDurationModel.Output
    {
        let caller = try await authorize(
            .readAnalytics, action: .scheduleDurationModelRead, resourceType: .appointment)
        let history = try await scheduling.completedVisits(scope: caller.scope)
        let evaluation = DurationPredictor.evaluate(
            history: history, types: try await store.appointmentTypes(scope: caller.scope))
        return .ok(
            .init(
                body: .json(
                    .init(
                        trainCount: evaluation.trainCount, testCount: evaluation.testCount,
                        predictorMAE: evaluation.predictorMAE, defaultMAE: evaluation.defaultMAE))))
    }
}

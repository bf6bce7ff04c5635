import Foundation
import Scheduling
import SharedKernel
import Specialists
import StoragePorts
import Synchronization
import Testing

/// A practice set up for booking: two clinicians, a consultation with a buffer after it, a
/// surgery that needs the one surgery room, and a patient.
struct SchedulingFixture: Sendable {
    let store: StoreUnderTest
    let scope: AccessScope
    let vet: Clinician
    let otherVet: Clinician
    /// 15 minutes with 10 minutes' buffer after.
    let consult: AppointmentType
    /// 30 minutes in the surgery room.
    let surgery: AppointmentType
    let theatre: Room
    let patient: UUID
    /// Two days after the test clock's start, on the hour: every booking is in the future.
    let morning: Date

    static func make(_ store: StoreUnderTest, name: String = "Scheduling") async throws -> SchedulingFixture {
        let (profile, admin) = try await store.accounts.createPractice(
            AccountContractTests.practice(name),
            administrator: FirstAdministrator(
                email: "\(name.lowercased().filter(\.isLetter))@example.com", displayName: "Admin", passwordHash: "h"),
            requestID: nil)
        let scope = AccessScope(practiceID: profile.id, actorID: admin.id, role: .administrator, requestID: nil)
        let repository = store.scheduling
        func clinician(_ name: String) async throws -> Clinician {
            try await repository.createClinician(
                Clinician(
                    displayName: name, credentials: "BVSc", expertise: [], species: [.dog],
                    maxAppointmentsPerDay: 40, complexityCeiling: 1), scope: scope)
        }
        let vet = try await clinician("Dr Vera Vet")
        let otherVet = try await clinician("Dr Otto Other")
        let consult = try await repository.createAppointmentType(
            AppointmentType(
                name: "Consultation", defaultDurationMinutes: 15, bufferAfterMinutes: 10,
                fee: Money(minorUnits: 4000, currency: "GBP")),
            scope: scope)
        let surgery = try await repository.createAppointmentType(
            AppointmentType(
                name: "Surgery", defaultDurationMinutes: 30, requiredRoomType: .surgery,
                fee: Money(minorUnits: 40000, currency: "GBP")),
            scope: scope)
        let theatre = try await repository.createRoom(Room(name: "Theatre 1", type: .surgery), scope: scope)
        let start = store.clock.clock.now().addingTimeInterval(2 * 86_400)
        let morning = Date(timeIntervalSince1970: (start.timeIntervalSince1970 / 3600).rounded(.up) * 3600)
        return SchedulingFixture(
            store: store, scope: scope, vet: vet, otherVet: otherVet, consult: consult, surgery: surgery,
            theatre: theatre,
            patient: try await store.patient(scope: scope), morning: morning)
    }

    /// Books `type` at `start` through `repository` (the fixture's store by default) with a
    /// decision that checks nothing: whether the time is free is left to the store's guard,
    /// which is what these tests hold to account. A room-type booking takes the theatre.
    func book(
        _ type: AppointmentType, at start: Date, clinician: Clinician? = nil, patient: UUID? = nil,
        key: IdempotencyKey? = nil,
        through repository: (any SchedulingRepository)? = nil, as caller: AccessScope? = nil,
        seen: (@Sendable (SchedulingData) -> Void)? = nil
    ) async throws -> (Versioned<Appointment>, replayed: Bool) {
        let scope = caller ?? self.scope
        let practiceID = scope.practiceID
        let patientID = patient ?? self.patient
        let clinicianID = (clinician ?? vet).id.rawValue
        let now = store.clock.clock.now()
        let room = type.requiredRoomType == nil ? nil : theatre.id
        return try await (repository ?? store.scheduling).bookAppointment(
            scope: scope, patientID: patientID, clinicianID: clinicianID, appointmentTypeID: type.id,
            reason: "check-up", staffNotes: nil,
            assessmentID: nil, idempotencyKey: key,
            reads: { _, type in
                BookingReads(
                    clinicianPeriod: TimeRange(
                        start: start.addingTimeInterval(-43_200), end: start.addingTimeInterval(43_200))!,
                    roomWindow: TimeRange(
                        start: start, end: start.addingTimeInterval(Double(type?.defaultDurationMinutes ?? 1) * 60))!)
            },
            decide: { data in
                seen?(data)
                guard let type = data.types.first else { throw DomainError.notFound(resource: "appointment type") }
                return try Appointment.book(
                    practiceID: practiceID, patientID: patientID, clinicianID: clinicianID, type: type, start: start,
                    roomID: room, now: now
                ).current
            })
    }

    /// Runs `body` and returns the ``BookingConflict`` it threw (`nil` if it threw none).
    static func conflict(_ body: () async throws -> Void) async throws -> BookingConflict? {
        do { try await body() } catch let conflict as BookingConflict { return conflict }
        return nil
    }
}

/// Booking's promises — no clinician or room double-booked, buffers count, idempotent
/// retries, practices apart — held to every store adapter alike.
@Suite("Scheduling contract (every store adapter)")
struct SchedulingContractTests {
    @Test(
        "a booking is decided on the clinician's picture, stored with its audit entry and event, and read back",
        arguments: Adapter.available)
    func bookAndRead(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let fixture = try await SchedulingFixture.make(store)
            let repository = store.scheduling
            let scope = fixture.scope
            let first = try await fixture.book(fixture.consult, at: fixture.morning)
            #expect(!first.replayed && first.0.version == 1)
            #expect(first.0.value.occupiedTime.end == fixture.morning.addingTimeInterval(25 * 60))

            let seen = PictureBox()
            _ = try await fixture.book(
                fixture.consult, at: fixture.morning.addingTimeInterval(3600), seen: { seen.set($0) })
            let picture = try #require(seen.get())
            #expect(picture.clinicians.map(\.id) == [fixture.vet.id] && picture.types.map(\.id) == [fixture.consult.id])
            #expect(picture.appointments.map(\.id) == [first.0.value.id])
            #expect(picture.practice.id == scope.practiceID && picture.rooms.map(\.id) == [fixture.theatre.id])

            let read = try await repository.appointment(scope: scope, id: first.0.value.id)
            #expect(read.value == first.0.value && read.version == 1)
            let day = TimeRange(
                start: fixture.morning.addingTimeInterval(-3600), end: fixture.morning.addingTimeInterval(86_400))!
            #expect(
                try await repository.appointments(scope: scope, overlapping: day, clinicianID: nil, orRoomType: nil)
                    .count == 2)
            #expect(
                try await repository.appointments(
                    scope: scope, overlapping: day, clinicianID: fixture.otherVet.id.rawValue, orRoomType: nil
                ).isEmpty)
            let data = try await repository.schedulingData(
                scope: scope, range: day, clinicianID: nil, appointmentTypeID: nil)
            #expect(
                Set(data.clinicians.map(\.id)) == [fixture.vet.id, fixture.otherVet.id] && data.types.count == 2
                    && data.appointments.count == 2)
            #expect(try await repository.rooms(scope: scope).map(\.name) == ["Theatre 1"])
            #expect(try await repository.appointmentTypes(scope: scope).map(\.name) == ["Consultation", "Surgery"])
            #expect(
                try await repository.clinicians(scope: scope, includingRetired: false).map(\.displayName) == [
                    "Dr Otto Other", "Dr Vera Vet",
                ])

            let booked = try await store.events.events(practiceID: scope.practiceID, after: 0, limit: 100).events.filter
            { $0.kind == "appointment.booked" }
            #expect(booked.count == 2 && booked.first?.resourceID == first.0.value.id.description)
            let audit = try await store.audit.auditEntries(
                scope: scope, limit: 100, before: nil, resourceType: ResourceKind.appointment.rawValue, resourceID: nil)
            #expect(audit.items.filter { $0.action == "appointment.book" }.count == 2)
            #expect(try await store.audit.verifyAuditChain().isIntact)
        }
    }

    @Test(
        """
        an overlapping booking of the clinician, the buffer after one, or the same room is refused naming what is taken
        """,
        arguments: Adapter.available)
    func conflicts(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let fixture = try await SchedulingFixture.make(store)
            let first = try await fixture.book(fixture.consult, at: fixture.morning).0.value
            let overlap = try await SchedulingFixture.conflict {
                _ = try await fixture.book(fixture.consult, at: fixture.morning.addingTimeInterval(300))
            }
            #expect(overlap?.resource == "clinician" && overlap?.conflictingTime == first.time)
            // 09:20 is after the 15 minutes but inside the 10 minutes' buffer.
            let buffer = try await SchedulingFixture.conflict {
                _ = try await fixture.book(fixture.consult, at: fixture.morning.addingTimeInterval(20 * 60))
            }
            #expect(buffer?.resource == "clinician" && buffer?.conflictingTime == first.time)
            _ = try await fixture.book(fixture.consult, at: fixture.morning.addingTimeInterval(25 * 60))
            // Another clinician at the same time is free.
            _ = try await fixture.book(fixture.consult, at: fixture.morning, clinician: fixture.otherVet)

            let later = fixture.morning.addingTimeInterval(4 * 3600)
            let surgery = try await fixture.book(fixture.surgery, at: later).0.value
            #expect(surgery.roomID == fixture.theatre.id)
            let room = try await SchedulingFixture.conflict {
                _ = try await fixture.book(
                    fixture.surgery, at: later.addingTimeInterval(600), clinician: fixture.otherVet)
            }
            #expect(room?.resource == "room" && room?.conflictingTime == surgery.time)
            let day = TimeRange(start: fixture.morning, end: fixture.morning.addingTimeInterval(86_400))!
            #expect(
                try await store.scheduling.appointments(
                    scope: fixture.scope, overlapping: day, clinicianID: nil, orRoomType: nil
                ).count == 4)
        }
    }

    @Test("a cancelled appointment frees its slot", arguments: Adapter.available)
    func cancelledFreesSlot(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let fixture = try await SchedulingFixture.make(store)
            let booked = try await fixture.book(fixture.consult, at: fixture.morning).0
            let cancel = try booked.value.decide(.cancel(reason: "owner called"), at: store.clock.clock.now())
            let cancelled = try await store.scheduling.saveAppointment(cancel, scope: fixture.scope, expectedVersion: 1)
            #expect(cancelled.version == 2 && cancelled.value.status == .cancelled)
            #expect(
                try await store.scheduling.appointment(scope: fixture.scope, id: booked.value.id).value.status
                    == .cancelled)
            let again = try await fixture.book(fixture.consult, at: fixture.morning)
            #expect(again.0.value.id != booked.value.id)
            // A stale version is refused.
            await #expect(throws: DomainError.self) {
                _ = try await store.scheduling.saveAppointment(cancel, scope: fixture.scope, expectedVersion: 1)
            }
        }
    }

    @Test(
        "saveAppointment refuses a reschedule onto taken time and leaves the appointment as it was",
        arguments: Adapter.available)
    func rescheduleConflict(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let fixture = try await SchedulingFixture.make(store)
            let nine = try await fixture.book(fixture.consult, at: fixture.morning).0.value
            let ten = try await fixture.book(fixture.consult, at: fixture.morning.addingTimeInterval(3600)).0
            let move = try ten.value.decide(.reschedule(to: nine.time, clinicianID: nil), at: store.clock.clock.now())
            let refused = try await SchedulingFixture.conflict {
                _ = try await store.scheduling.saveAppointment(move, scope: fixture.scope, expectedVersion: ten.version)
            }
            #expect(refused?.resource == "clinician" && refused?.conflictingTime == nine.time)
            let unchanged = try await store.scheduling.appointment(scope: fixture.scope, id: ten.value.id)
            #expect(unchanged.version == 1 && unchanged.value.time == ten.value.time)
            // To another clinician it goes through.
            let toOther = try ten.value.decide(
                .reschedule(to: nine.time, clinicianID: fixture.otherVet.id.rawValue), at: store.clock.clock.now())
            #expect(
                try await store.scheduling.saveAppointment(toOther, scope: fixture.scope, expectedVersion: 1).version
                    == 2)
        }
    }

    @Test(
        "a retried booking with the same key returns the first appointment; the key with another request is refused",
        arguments: Adapter.available)
    func idempotentReplay(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let fixture = try await SchedulingFixture.make(store)
            let key = IdempotencyKey(key: "retry-1", fingerprint: "body-a")
            let first = try await fixture.book(fixture.consult, at: fixture.morning, key: key)
            let replay = try await fixture.book(fixture.consult, at: fixture.morning, key: key)
            #expect(!first.replayed && replay.replayed && replay.0.value.id == first.0.value.id)
            await #expect(throws: DomainError.self) {
                _ = try await fixture.book(
                    fixture.consult, at: fixture.morning.addingTimeInterval(3600),
                    key: IdempotencyKey(key: "retry-1", fingerprint: "body-b"))
            }
            let day = TimeRange(start: fixture.morning, end: fixture.morning.addingTimeInterval(86_400))!
            #expect(
                try await store.scheduling.appointments(
                    scope: fixture.scope, overlapping: day, clinicianID: nil, orRoomType: nil
                ).count == 1)
            let events = try await store.events.events(practiceID: fixture.scope.practiceID, after: 0, limit: 100)
                .events
            #expect(events.filter { $0.kind == "appointment.booked" }.count == 1)
        }
    }

    @Test(
        """
        an Idempotency-Key is one account's own: another account's same key is a booking of its own, replayed for it \
        alone
        """,
        arguments: Adapter.available)
    func idempotencyKeyPerAccount(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let fixture = try await SchedulingFixture.make(store)
            let colleague = try await store.accounts.createUser(
                scope: fixture.scope, email: "colleague@example.com", displayName: "Colleague",
                role: .receptionist, passwordHash: "h")
            let other = AccessScope(
                practiceID: fixture.scope.practiceID, actorID: colleague.id, role: .receptionist, requestID: nil)
            let key = IdempotencyKey(key: "shared-1", fingerprint: "body-a")
            let first = try await fixture.book(fixture.consult, at: fixture.morning, key: key)
            let theirs = try await fixture.book(
                fixture.consult, at: fixture.morning.addingTimeInterval(3600), key: key, as: other)
            #expect(!theirs.replayed && theirs.0.value.id != first.0.value.id)
            let again = try await fixture.book(
                fixture.consult, at: fixture.morning.addingTimeInterval(3600), key: key, as: other)
            #expect(again.replayed && again.0.value.id == theirs.0.value.id)
            let mine = try await fixture.book(fixture.consult, at: fixture.morning, key: key)
            #expect(mine.replayed && mine.0.value.id == first.0.value.id)
        }
    }

    @Test(
        "another practice sees none of the practice's clinicians, types, rooms or appointments",
        arguments: Adapter.available)
    func practiceIsolation(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let north = try await SchedulingFixture.make(store, name: "North")
            let south = try await SchedulingFixture.make(store, name: "South")
            let booked = try await north.book(north.consult, at: north.morning).0.value
            // The same time in the other practice is free.
            _ = try await south.book(south.consult, at: south.morning)
            await #expect(throws: DomainError.self) {
                _ = try await store.scheduling.appointment(scope: south.scope, id: booked.id)
            }
            let day = TimeRange(start: north.morning, end: north.morning.addingTimeInterval(86_400))!
            let seen = try await store.scheduling.schedulingData(
                scope: south.scope, range: day, clinicianID: nil, appointmentTypeID: nil)
            #expect(!seen.appointments.contains { $0.id == booked.id } && seen.appointments.count == 1)
            #expect(
                !seen.clinicians.contains { $0.id == north.vet.id }
                    && !seen.types.contains { $0.id == north.consult.id })
            #expect(!seen.rooms.contains { $0.id == north.theatre.id })
            #expect(try await store.scheduling.clinicians(scope: south.scope, includingRetired: true).count == 2)
        }
    }
}

/// What a decision saw, kept for the test to look at.
final class PictureBox: Sendable {
    private let value = Mutex<SchedulingData?>(nil)
    func set(_ data: SchedulingData) { value.withLock { $0 = data } }
    func get() -> SchedulingData? { value.withLock { $0 } }
}

/// Set-up changes on either store: decided by the domain, names kept unique, retired types kept.
@Suite("Storage contract: changing rooms and appointment types")
struct ResourceChangeContractTests {
    @Test(
        "a type is changed and retired, a room taken out of service; a clash of names is refused alike",
        arguments: Adapter.available)
    func changes(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let fixture = try await SchedulingFixture.make(store, name: "Set-up")
            let scope = fixture.scope
            let other = try await store.scheduling.createAppointmentType(
                AppointmentType(
                    name: "Dental", defaultDurationMinutes: 60, fee: Money(minorUnits: 9000, currency: "GBP")),
                scope: scope)
            let changed = try await store.scheduling.updateAppointmentType(
                id: fixture.consult.id, scope: scope, action: .appointmentTypeUpdate
            ) {
                try $0.applying(AppointmentTypeChange(fee: Money(minorUnits: 6100, currency: "GBP")))
            }
            #expect(changed.fee.minorUnits == 6100)
            await #expect(throws: UniquenessConflict.self) {
                _ = try await store.scheduling.updateAppointmentType(
                    id: other.id, scope: scope, action: .appointmentTypeUpdate
                ) {
                    try $0.applying(AppointmentTypeChange(name: changed.name))
                }
            }
            let now = store.clock.clock.now()
            _ = try await store.scheduling.updateAppointmentType(
                id: other.id, scope: scope, action: .appointmentTypeRetire
            ) { try $0.retired(at: now) }
            let types = try await store.scheduling.appointmentTypes(scope: scope)
            #expect(types.first { $0.id == other.id }?.isRetired == true)
            #expect(types.first { $0.id == fixture.consult.id }?.fee.minorUnits == 6100)
            await #expect(throws: DomainError.notFound(resource: "appointment type")) {
                _ = try await store.scheduling.updateAppointmentType(
                    id: Identifier(), scope: scope, action: .appointmentTypeUpdate
                ) { $0 }
            }
            let room = try #require(try await store.scheduling.rooms(scope: scope).first)
            let closed = try await store.scheduling.updateRoom(id: room.id, scope: scope) {
                try $0.applying(RoomChange(isActive: false))
            }
            #expect(!closed.isActive)
            #expect(try await store.scheduling.rooms(scope: scope).first { $0.id == room.id }?.isActive == false)
        }
    }
}

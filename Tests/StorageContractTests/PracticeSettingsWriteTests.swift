import Foundation
import Scheduling
import SharedKernel
import StoragePorts
import Testing

/// The settings decisions both stores ask, without a store: the version a change must name,
/// the bookings it strands, and what the trail and the live stream hear of it.
@Suite("Practice settings: one decision for both stores")
struct PracticeSettingsWriteTests {
    static let practice = PracticeID()
    let scope = AccessScope.system(Self.practice)
    let now = Timestamp.date("2026-11-30T09:00:00Z")!
    var current: Versioned<PracticeProfile> {
        Versioned(
            PracticeProfile(
                id: scope.practiceID, name: "Riverside", timeZone: "Europe/London",
                openingHours: (1...5).map { OpeningHours(weekday: $0, opensMinute: 8 * 60, closesMinute: 18 * 60) }),
            version: 3)
    }
    /// Tuesday 1 December 2026, 17:00–17:30 London (GMT): inside today's hours.
    let lateBooking =
        Versioned(
            Appointment(
                practiceID: Self.practice, patientID: UUID(), clinicianID: UUID(), appointmentTypeID: .init(),
                time: TimeRange(
                    start: Timestamp.date("2026-12-01T17:00:00Z")!, end: Timestamp.date("2026-12-01T17:30:00Z")!)!),
            version: 1)

    @Test("shorter hours strand the booking left outside them; the trail names the fields and the count")
    func hoursStrand() throws {
        var change = PracticeSettingsChange()
        change.openingHours = (1...5).map { OpeningHours(weekday: $0, opensMinute: 8 * 60, closesMinute: 16 * 60) }
        let write = try PracticeSettingsWrite.update(
            change, current: current, expectedVersion: 3, open: [lateBooking], scope: scope, now: now)
        #expect(write.practice.version == 4)
        #expect(write.stranded.map(\.value.id) == [lateBooking.value.id])
        #expect(write.audit.action == .practiceUpdate)
        #expect(write.audit.detail == "fields=openingHours stranded_appointments=1")
        #expect(write.event.kind == PracticeEventKind.settingsChanged)

        // A change that leaves the hours alone strands nothing, whatever is booked.
        var renamed = PracticeSettingsChange()
        renamed.name = "Riverside Veterinary Hospital"
        let rename = try PracticeSettingsWrite.update(
            renamed, current: current, expectedVersion: nil, open: [lateBooking], scope: scope, now: now)
        #expect(rename.stranded.isEmpty && rename.practice.value.name == "Riverside Veterinary Hospital")
    }

    @Test("a change naming an old version is refused with the current one, whatever the change")
    func staleVersion() {
        let closure = PracticeClosure(firstDay: LocalDate("2026-12-01")!, reason: "Staff training")
        #expect(throws: DomainError.versionMismatch(current: 3)) {
            try PracticeSettingsWrite.update(
                PracticeSettingsChange(), current: current, expectedVersion: 2, open: [], scope: scope, now: now)
        }
        #expect(throws: DomainError.versionMismatch(current: 3)) {
            try PracticeSettingsWrite.addClosure(closure, current: current, expectedVersion: 2, scope: scope, now: now)
        }
        #expect(throws: DomainError.versionMismatch(current: 3)) {
            try PracticeSettingsWrite.removeClosure(
                closure.id, current: current, expectedVersion: 2, scope: scope, now: now)
        }
    }

    @Test("a closure over a booking reports it once; a replay reports it without a second entry; removed is gone")
    func closureStrands() throws {
        let closure = PracticeClosure(firstDay: LocalDate("2026-12-01")!, reason: "Staff training")
        let added = try PracticeSettingsWrite.addClosure(
            closure, current: current, expectedVersion: 3, scope: scope, now: now)
        #expect(added.event.kind == PracticeEventKind.closureAdded)
        #expect(added.audit.detail == "closure=\(closure.id) first=2026-12-01 last=2026-12-01 yearly=false")

        let first = try PracticeSettingsWrite.closureAdded(
            closure.id.description, in: added.practice, open: [lateBooking], replayed: false, scope: scope, now: now)
        #expect(first.addition.appointmentsToReplan.map(\.value.id) == [lateBooking.value.id])
        #expect(first.audit?.detail == "closure=\(closure.id) affected_appointments=1")
        let replay = try PracticeSettingsWrite.closureAdded(
            closure.id.description, in: added.practice, open: [lateBooking], replayed: true, scope: scope, now: now)
        #expect(replay.addition.appointmentsToReplan.count == 1 && replay.audit == nil)

        let removed = try PracticeSettingsWrite.removeClosure(
            closure.id, current: added.practice, expectedVersion: 4, scope: scope, now: now)
        #expect(removed.practice.value.closures.isEmpty && removed.event.kind == PracticeEventKind.closureRemoved)
        #expect(throws: DomainError.notFound(resource: "closure")) {
            try PracticeSettingsWrite.closureAdded(
                closure.id.description, in: removed.practice, open: [], replayed: true, scope: scope, now: now)
        }
    }
}

import Foundation
import PostgresNIO
import Scheduling
import SharedKernel

extension PostgresStore {
    /// Key spaces of the booking locks (the first half of a two-key advisory lock; the
    /// migration lock uses a one-key lock, a separate space).
    static let clinicianLockSpace: Int32 = 73_001
    static let roomTypeLockSpace: Int32 = 73_002

    /// Takes, until the transaction ends, the advisory locks of what a booking competes for:
    /// the clinician, then — for a type that needs a room — the practice's rooms of that type
    /// in each hour (UTC) that the booking's time (buffer included) touches, earliest first.
    ///
    /// The exclusion constraints alone keep the calendar right, but clients racing for one
    /// slot then each insert a row and wait for the others' rows, and the server breaks those
    /// cycles by aborting transactions (deadlocks) again and again. Taken before the picture is
    /// read, the locks make bookings of one clinician or room type take turns: each decides on
    /// the picture its predecessor committed, and a loser is refused at once. Always in this
    /// order (clinician first, then hours in order), so the locks themselves never deadlock; a
    /// hash collision only makes two unrelated bookings take turns. Two bookings that could
    /// compete for a room overlap in time, so they share an hour and so a lock: rooms are taken
    /// in turn per hour, not for the whole practice or day, and bookings of different hours go
    /// at once (a booking reads only the room bookings that overlap its own time).
    func lockBookingResources(
        practiceID: PracticeID, clinicianID: UUID, room: (type: RoomType, occupying: TimeRange)?,
        connection: PostgresConnection
    ) async throws {
        try await connection.prepared(
            """
            SELECT pg_advisory_xact_lock(\(Self.clinicianLockSpace), hashtext(\(UUIDText.lowercase(clinicianID))))
            """, logger: logger)
        if let room {
            try await lockRooms(
                practiceID: practiceID, type: room.type, occupying: room.occupying, connection: connection)
        }
    }

    /// The rooms-of-a-type half of ``lockBookingResources(practiceID:clinicianID:room:connection:)``,
    /// for a booking that learns its time after taking the clinician's lock.
    func lockRooms(
        practiceID: PracticeID, type: RoomType, occupying: TimeRange, connection: PostgresConnection
    ) async throws {
        // Every hour's lock in one statement, taken in the array's order (earliest first).
        let keys = Self.roomLockKeys(practiceID: practiceID, type: type, occupying: occupying)
        try await connection.prepared(
            """
            SELECT count(*) FROM (
                SELECT pg_advisory_xact_lock(\(Self.roomTypeLockSpace), hashtext(hour.key))
                FROM unnest(\(keys)::text[]) WITH ORDINALITY AS hour(key, position) ORDER BY hour.position
            ) AS taken
            """, logger: logger)
    }

    /// The keys of the room locks a booking of `type` occupying `occupying` takes, in the order
    /// it takes them: one per hour touched, earliest first.
    static func roomLockKeys(practiceID: PracticeID, type: RoomType, occupying: TimeRange) -> [String] {
        utcHours(occupying).map { "\(practiceID):\(type.rawValue):\($0)" }
    }

    /// The hours (since 1970, UTC) a time touches, in order; an end on the hour does not
    /// touch the next one.
    static func utcHours(_ time: TimeRange) -> [Int] {
        let first = Int((time.start.timeIntervalSince1970 / 3_600).rounded(.down))
        let last = Int((time.end.timeIntervalSince1970 / 3_600).rounded(.up)) - 1
        return Array(first...max(first, last))
    }
}

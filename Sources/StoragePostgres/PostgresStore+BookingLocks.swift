import Foundation
import PostgresNIO
import Scheduling
import SharedKernel

extension PostgresStore {
    /// Key spaces of the booking locks (the first half of a two-key advisory lock; the
    /// migration lock uses a one-key lock, a separate space).
    private static let clinicianLockSpace: Int32 = 73_001
    private static let roomTypeLockSpace: Int32 = 73_002

    /// Takes, until the transaction ends, the advisory locks of what a booking competes for:
    /// the clinician, then — for a type that needs a room — the practice's rooms of that type.
    ///
    /// The exclusion constraints alone keep the calendar right, but clients racing for one
    /// slot then each insert a row and wait for the others' rows, and the server breaks those
    /// cycles by aborting transactions (deadlocks) again and again. Taken before the picture is
    /// read, the locks make bookings of one clinician or room type take turns: each decides on
    /// the picture its predecessor committed, and a loser is refused at once. Always in this
    /// order (clinician first), so the locks themselves never deadlock; a hash collision only
    /// makes two unrelated bookings take turns.
    func lockBookingResources(
        practiceID: PracticeID, clinicianID: UUID, roomType: RoomType?, connection: PostgresConnection
    ) async throws {
        try await connection.query(
            """
            SELECT pg_advisory_xact_lock(\(Self.clinicianLockSpace), hashtext(\(UUIDText.lowercase(clinicianID))))
            """, logger: logger)
        if let roomType {
            try await connection.query(
                """
                SELECT pg_advisory_xact_lock(\(Self.roomTypeLockSpace), hashtext(\(practiceID.description + ":" + roomType.rawValue)))
                """, logger: logger)
        }
    }
}

import Foundation
import GRDB
import Scheduling
import SharedKernel
import Specialists
import StoragePorts
import Synchronization

/// A practice's scheduling configuration — its profile (time zone, opening hours), active
/// clinicians with expertise, their availability, rooms and appointment types — as of one
/// value of `practice.config_version`.
struct SchedulingConfiguration: Sendable {
    let version: Int64
    let practice: PracticeProfile
    let clinicians: [Clinician]
    let availabilities: [Identifier<Clinician>: Versioned<ClinicianAvailability>]
    let types: [AppointmentType]
    let rooms: [Room]
}

/// The newest scheduling configuration read per practice.
///
/// Every booking and free-slot search needs the configuration, and decoding it (JSON of
/// hours, availability and types) costs more than the booking itself. The database bumps
/// `practice.config_version` in triggers on every write to any part of it, so a transaction
/// uses a cached copy only when the version it reads matches: the cache can never answer
/// with something its own transaction would not see.
final class SchedulingConfigurationCache: Sendable {
    private let entries = Mutex<[PracticeID: SchedulingConfiguration]>([:])

    /// The cached configuration of `practiceID` if it is exactly `version`.
    func configuration(of practiceID: PracticeID, version: Int64) -> SchedulingConfiguration? {
        entries.withLock { entries in
            guard let entry = entries[practiceID], entry.version == version else { return nil }
            return entry
        }
    }

    /// Keeps `configuration` unless a newer version is already kept (an older snapshot read
    /// concurrently must not replace it).
    func remember(_ configuration: SchedulingConfiguration) {
        entries.withLock { entries in
            if let kept = entries[configuration.practice.id], kept.version > configuration.version { return }
            entries[configuration.practice.id] = configuration
        }
    }
}

extension VetNetStore {
    /// The practice's scheduling configuration as the transaction of `db` sees it: from the
    /// cache when the version matches, read and cached otherwise.
    func schedulingConfiguration(db: Database, practiceID: PracticeID) throws -> SchedulingConfiguration {
        let versionStatement = try db.cachedStatement(sql: "SELECT config_version FROM practice WHERE id = ?")
        let version = try Int64.fetchOne(versionStatement, arguments: [practiceID.description]).orNotFound("practice")
        if let cached = schedulingCache.configuration(of: practiceID, version: version) { return cached }
        let practice = try Row.fetchOne(
            db, sql: "SELECT * FROM practice WHERE id = ?", arguments: [practiceID.description]
        ).map(Self.practice(from:)).orNotFound("practice")
        let configuration = SchedulingConfiguration(
            version: version, practice: practice, clinicians: try Self.clinicians(db: db, practiceID: practiceID),
            availabilities: try Self.availabilities(db: db, practiceID: practiceID),
            types: try Self.appointmentTypes(db: db, practiceID: practiceID),
            rooms: try Self.rooms(db: db, practiceID: practiceID))
        schedulingCache.remember(configuration)
        return configuration
    }
}

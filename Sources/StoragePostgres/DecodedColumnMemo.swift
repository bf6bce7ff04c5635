import Foundation
import StoragePorts
import Synchronization

/// The JSON columns every booking reads (the practice's profile, the appointment type, the
/// clinician and their availability), decoded once per distinct text.
///
/// They change seldom and are read by every booking; decoding them again each time was a
/// measurable share of a booking's time in this process. The text read in the booking's own
/// transaction is the key, so a changed column is a new entry, never a stale answer. Bounded:
/// when full, it starts again empty.
final class DecodedColumnMemo: Sendable {
    private struct Key: Hashable {
        let column: String
        let text: String
    }

    private let entries = Mutex<[Key: any Sendable]>([:])
    private let capacity: Int

    /// A memo of at most `capacity` decoded texts.
    init(capacity: Int = 512) { self.capacity = capacity }

    /// `text` decoded as `type` (a text that does not decode is refused naming `column`, and
    /// not kept).
    func decoded<Value: Decodable & Sendable>(_ type: Value.Type, from text: String, column: String) throws -> Value {
        let key = Key(column: column, text: text)
        if let known = entries.withLock({ $0[key] }) as? Value { return known }
        let value = try StoreCorruption.decoded(type, from: text, column: column)
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = value
        }
        return value
    }
}

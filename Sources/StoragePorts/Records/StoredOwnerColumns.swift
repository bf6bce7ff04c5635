import Foundation
import PatientRecords
import SharedKernel

/// An owner's columns as both stores keep them: the contact details (email, phones, postal
/// address, front-desk notes) sealed under ``SealedField``, their JSON with sorted keys; the
/// communication preferences as JSON, in clear. Written and read here once, so the stores
/// cannot drift on what is sealed or how.
public struct StoredOwnerColumns: Sendable, Equatable {
    /// The sealed email address, if any.
    public let email: String?
    /// The sealed JSON of the phone numbers.
    public let phones: String
    /// The sealed JSON of the postal address, if any.
    public let address: String?
    /// The JSON of the communication preferences.
    public let communication: String
    /// The sealed front-desk notes, if any.
    public let notes: String?

    /// The columns of `owner`, sealed with `seal`.
    public init(_ owner: Owner, seal: FieldSeal) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        func json(_ value: some Encodable) throws -> String {
            String(decoding: try encoder.encode(value), as: UTF8.self)
        }
        let id = owner.id.description
        email = try seal.sealIfPresent(owner.email, .ownerEmail, id: id)
        phones = try seal.seal(try json(owner.phones), .ownerPhones, id: id)
        address = try owner.address.map { try seal.seal(try json($0), .ownerAddress, id: id) }
        communication = try json(owner.communication)
        notes = try seal.sealIfPresent(owner.notes, .ownerNotes, id: id)
    }

    /// The columns as read back from a row.
    public init(email: String?, phones: String, address: String?, communication: String, notes: String?) {
        self.email = email
        self.phones = phones
        self.address = address
        self.communication = communication
        self.notes = notes
    }

    /// The owner in `row` (the columns of `owner`, its JSON as text), opened with `seal`, and
    /// its version.
    public static func owner(from row: some StoredRow, seal: FieldSeal) throws -> Versioned<Owner> {
        let columns = StoredColumns(row, table: "owner")
        let stored = StoredOwnerColumns(
            email: try columns.optionalText("email"), phones: try columns.text("phones"),
            address: try columns.optionalText("address"), communication: try columns.text("communication"),
            notes: try columns.optionalText("notes"))
        let owner = try stored.owner(
            id: Identifier(try columns.uuid("id")), firstName: try columns.text("first_name"),
            lastName: try columns.text("last_name"), seal: seal)
        return Versioned(owner, version: try columns.int("version"))
    }

    /// The owner these columns hold, opened with `seal`; ``StoreCorruption`` naming the column
    /// when one does not open or is not the JSON the stores write.
    public func owner(id: Identifier<Owner>, firstName: String, lastName: String, seal: FieldSeal) throws -> Owner {
        let key = id.description
        func decode<T: Decodable>(_ type: T.Type, _ text: String, column: String) throws -> T {
            guard let value = try? JSONDecoder().decode(T.self, from: Data(text.utf8)) else {
                throw StoreCorruption(column: "owner.\(column)", reason: "not the JSON the store writes")
            }
            return value
        }
        return Owner(
            id: id, firstName: firstName, lastName: lastName,
            email: try seal.openIfPresent(email, .ownerEmail, id: key),
            phones: try decode([PhoneNumber].self, try seal.open(phones, .ownerPhones, id: key), column: "phones"),
            address: try address.map {
                try decode(PostalAddress.self, try seal.open($0, .ownerAddress, id: key), column: "address")
            },
            communication: try decode(CommunicationPreferences.self, communication, column: "communication"),
            notes: try seal.openIfPresent(notes, .ownerNotes, id: key))
    }
}

/// The rows that store an owner, new or changed, as both stores write them (the embedded
/// store adds its contact search tokens beside them).
extension StoredOwnerColumns {
    /// A new owner's row, registered `now`.
    public static func insert(_ owner: Owner, seal: FieldSeal, now: Date) throws -> StoredInsert {
        let columns = try StoredOwnerColumns(owner, seal: seal)
        return StoredInsert(
            "owner",
            [
                "id": .uuid(owner.id.rawValue), "practice_id": .uuid(seal.practiceID.rawValue),
                "first_name": .text(owner.firstName), "last_name": .text(owner.lastName), "email": .text(columns.email),
                "phones": .text(columns.phones), "address": .text(columns.address),
                "communication": .json(columns.communication), "notes": .text(columns.notes),
                "created_at": .time(now), "updated_at": .time(now),
            ])
    }

    /// The change an owner's edit stores: names and contact details, stamped `now`, the
    /// version moved on.
    public static func update(_ owner: Owner, seal: FieldSeal, now: Date) throws -> StoredUpdate {
        let columns = try StoredOwnerColumns(owner, seal: seal)
        return StoredUpdate(
            "owner",
            setting: [
                "first_name": .text(owner.firstName), "last_name": .text(owner.lastName), "email": .text(columns.email),
                "phones": .text(columns.phones), "address": .text(columns.address),
                "communication": .json(columns.communication), "notes": .text(columns.notes),
                "updated_at": .time(now),
            ],
            key: ["id": .uuid(owner.id.rawValue), "practice_id": .uuid(seal.practiceID.rawValue)],
            bumpsVersion: true)
    }

    /// The contact details sealed again in place (a store's sealing pass): nothing else of the
    /// owner changes, its version included.
    public static func resealing(_ owner: Owner, seal: FieldSeal) throws -> StoredUpdate {
        let columns = try StoredOwnerColumns(owner, seal: seal)
        return StoredUpdate(
            "owner",
            setting: [
                "email": .text(columns.email), "phones": .text(columns.phones), "address": .text(columns.address),
                "notes": .text(columns.notes),
            ],
            key: ["id": .uuid(owner.id.rawValue), "practice_id": .uuid(seal.practiceID.rawValue)])
    }
}

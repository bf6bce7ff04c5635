import Foundation
import SharedKernel

/// An animal's owner (client of the practice).
public struct Owner: Codable, Hashable, Sendable {
    /// Identifier.
    public var id: Identifier<Owner>
    /// Given name.
    public var firstName: String
    /// Family name.
    public var lastName: String
    /// Email address.
    public var email: String?
    /// Phone numbers, most preferred first.
    public var phones: [PhoneNumber]
    /// Postal address.
    public var address: PostalAddress?
    /// How the owner wants to be contacted.
    public var communication: CommunicationPreferences
    /// Free-text notes for the front desk.
    public var notes: String?

    /// Creates an owner.
    public init(
        id: Identifier<Owner> = .init(), firstName: String, lastName: String, email: String? = nil,
        phones: [PhoneNumber] = [],
        address: PostalAddress? = nil, communication: CommunicationPreferences = .init(), notes: String? = nil
    ) {
        self.id = id
        self.firstName = firstName
        self.lastName = lastName
        self.email = email
        self.phones = phones
        self.address = address
        self.communication = communication
        self.notes = notes
    }

    /// "First Last".
    public var fullName: String { "\(firstName) \(lastName)" }

    /// Checks every field and reports all problems at once.
    public func validate() throws(ValidationError) {
        var errors = FieldErrorCollector()
        if firstName.trimmingCharacters(in: .whitespaces).isEmpty { errors.add("firstName", "must not be empty") }
        if lastName.trimmingCharacters(in: .whitespaces).isEmpty { errors.add("lastName", "must not be empty") }
        if let email, !EmailAddress.isPlausible(email) {
            errors.add("email", "must be an email address like name@example.com")
        }
        for (index, phone) in phones.enumerated() where !phone.isPlausible {
            errors.add("phones[\(index)].number", "must contain 6 to 15 digits")
        }
        try errors.throwIfAny()
    }
}

/// A labelled phone number.
public struct PhoneNumber: Codable, Hashable, Sendable {
    /// e.g. "mobile", "home", "work".
    public var label: String
    /// As entered; digits are extracted for search.
    public var number: String

    /// Creates a phone number.
    public init(label: String, number: String) {
        self.label = label
        self.number = number
    }

    /// The digits only, the form used for search.
    public var digits: String { number.filter(\.isNumber) }

    /// Whether the number has a plausible count of digits (E.164 allows at most 15).
    public var isPlausible: Bool { (6...15).contains(digits.count) }
}

/// A postal address.
public struct PostalAddress: Codable, Hashable, Sendable {
    public var line1: String
    public var line2: String?
    public var city: String
    public var postcode: String
    public var country: String

    /// Creates an address.
    public init(line1: String, line2: String? = nil, city: String, postcode: String, country: String) {
        self.line1 = line1
        self.line2 = line2
        self.city = city
        self.postcode = postcode
        self.country = country
    }
}

/// Contact preferences: channel and whether reminders are welcome.
public struct CommunicationPreferences: Codable, Hashable, Sendable {
    /// Preferred channel.
    public enum Channel: String, Codable, Sendable, CaseIterable { case email, sms, phone, post }
    /// Preferred channel.
    public var preferredChannel: Channel
    /// Vaccination and check-up reminders.
    public var reminders: Bool
    /// Marketing messages.
    public var marketing: Bool

    /// Creates preferences.
    public init(preferredChannel: Channel = .email, reminders: Bool = true, marketing: Bool = false) {
        self.preferredChannel = preferredChannel
        self.reminders = reminders
        self.marketing = marketing
    }
}

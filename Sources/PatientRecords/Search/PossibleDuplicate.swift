import Foundation
import SharedKernel

/// Why a patient already on file may be the one about to be registered: registering the same
/// dog twice splits its history across two records, so reception is warned before saving.
public enum DuplicateReason: String, Sendable, CaseIterable, Codable {
    /// The same microchip number.
    case sameMicrochip = "same_microchip"
    /// An owner phone with the same digits.
    case sameOwnerPhone = "same_owner_phone"
    /// The same owner email address (without case).
    case sameOwnerEmail = "same_owner_email"
    /// The same owner name (without case or accents).
    case sameOwnerName = "same_owner_name"
    /// The same patient name, or one the start of the other (at least three letters), of the same species.
    case similarPatientName = "similar_patient_name"
}

/// What reception is about to register, as far as typed.
public struct RegistrationDetails: Sendable, Hashable {
    /// The patient's name.
    public var patientName: String?
    /// The patient's species.
    public var species: Species?
    /// Its microchip number.
    public var microchip: String?
    /// The owner's full name.
    public var ownerName: String?
    /// One of the owner's phones.
    public var ownerPhone: String?
    /// The owner's email.
    public var ownerEmail: String?

    /// Creates the details.
    public init(
        patientName: String? = nil, species: Species? = nil, microchip: String? = nil, ownerName: String? = nil,
        ownerPhone: String? = nil, ownerEmail: String? = nil
    ) {
        self.patientName = patientName
        self.species = species
        self.microchip = microchip
        self.ownerName = ownerName
        self.ownerPhone = ownerPhone
        self.ownerEmail = ownerEmail
    }

    /// The searches that can find a duplicate: each detail long enough to mean something.
    public var searches: [String] {
        var terms: [String] = []
        if let microchip = Self.present(microchip) { terms.append(microchip) }
        if let phone = ownerPhone, SearchText.phoneDigits(phone).count >= 6 {
            terms.append(SearchText.phoneDigits(phone))
        }
        if let email = Self.present(ownerEmail), email.contains("@") { terms.append(email) }
        if let owner = Self.present(ownerName), owner.contains(" ") { terms.append(owner) }
        if let name = Self.present(patientName), name.count >= 2 { terms.append(name) }
        return terms
    }

    /// Why `patient` (owned by `owner`) may be the same animal, strongest first; empty when it is not.
    public func reasons(_ patient: Patient, owner: Owner?) -> [DuplicateReason] {
        var reasons: [DuplicateReason] = []
        if let chip = Self.present(microchip), let theirs = patient.microchip, Self.fold(theirs) == Self.fold(chip) {
            reasons.append(.sameMicrochip)
        }
        if let phone = ownerPhone.map(SearchText.phoneDigits), phone.count >= 6,
            owner?.phones.contains(where: { SearchText.phoneDigits($0.number) == phone }) == true
        {
            reasons.append(.sameOwnerPhone)
        }
        if let email = Self.present(ownerEmail), let theirs = owner?.email, Self.fold(theirs) == Self.fold(email) {
            reasons.append(.sameOwnerEmail)
        }
        if let name = Self.present(ownerName), let owner, Self.fold(owner.fullName) == Self.fold(name) {
            reasons.append(.sameOwnerName)
        }
        if let name = Self.present(patientName).map(Self.fold) {
            let theirs = Self.fold(patient.name)
            let similar =
                theirs == name
                || ((theirs.hasPrefix(name) || name.hasPrefix(theirs)) && min(name.count, theirs.count) >= 3)
            if similar, species == nil || species == patient.species { reasons.append(.similarPatientName) }
        }
        return reasons
    }

    private static func present(_ text: String?) -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        return text
    }

    private static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).trimmingCharacters(
            in: .whitespaces)
    }
}

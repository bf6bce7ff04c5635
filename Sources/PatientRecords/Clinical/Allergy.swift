import Foundation
import SharedKernel

/// A substance the patient reacts to. Shown as an alert wherever drugs are prescribed.
public struct Allergy: Codable, Hashable, Sendable {
    /// How bad the reaction is.
    public enum Severity: String, Codable, Sendable, CaseIterable, Comparable {
        case mild, moderate, severe
        case lifeThreatening = "life_threatening"

        private var rank: Int { Self.allCases.firstIndex(of: self)! }
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    /// Identifier.
    public var id: Identifier<Allergy>
    /// The patient concerned.
    public var patientID: Identifier<Patient>
    /// The substance ("penicillin", "chicken protein").
    public var substance: String
    /// The reaction observed ("urticaria", "vomiting"), if recorded.
    public var reaction: String?
    /// Severity of the reaction.
    public var severity: Severity

    /// Creates an allergy.
    public init(
        id: Identifier<Allergy> = .init(), patientID: Identifier<Patient>, substance: String, reaction: String? = nil,
        severity: Severity
    ) {
        self.id = id
        self.patientID = patientID
        self.substance = substance
        self.reaction = reaction
        self.severity = severity
    }

    /// Refuses an empty substance.
    public func validate() throws(ValidationError) {
        var errors = FieldErrorCollector()
        RecordDateRules.notBlank(substance, field: "substance", into: &errors)
        try errors.throwIfAny()
    }
}

import Foundation
import SharedKernel

/// A vaccine given to the patient, with the batch for recalls and the date the next dose is due.
public struct Vaccination: Codable, Hashable, Sendable {
    /// Identifier.
    public var id: Identifier<Vaccination>
    /// The patient vaccinated.
    public var patientID: Identifier<Patient>
    /// The vaccine ("DHPPi", "Rabies", "RHDV2"); doses of the same vaccine supersede each other.
    public var vaccine: String
    /// The day it was given.
    public var administeredDate: Date
    /// Manufacturer's batch (lot) number, needed when a batch is recalled.
    public var batchNumber: String?
    /// When the next dose is due; `nil` when none is planned.
    public var nextDueDate: Date?

    /// Creates a vaccination.
    public init(
        id: Identifier<Vaccination> = .init(), patientID: Identifier<Patient>, vaccine: String, administeredDate: Date,
        batchNumber: String? = nil, nextDueDate: Date? = nil
    ) {
        self.id = id
        self.patientID = patientID
        self.vaccine = vaccine
        self.administeredDate = administeredDate
        self.batchNumber = batchNumber
        self.nextDueDate = nextDueDate
    }

    // MARK: - Validation

    /// Checks the vaccination and reports every bad field: an empty vaccine name, a date in the
    /// future or before the patient's birth, and a next-due date not after the administered day.
    public func validate(now: Date, birthDate: Date? = nil, calendar: Calendar = RecordCalendar.utc)
        throws(ValidationError)
    {
        var errors = FieldErrorCollector()
        RecordDateRules.notBlank(vaccine, field: "vaccine", into: &errors)
        RecordDateRules.notInFuture(administeredDate, field: "administeredDate", now: now, into: &errors)
        RecordDateRules.notBeforeBirth(
            administeredDate, birthDate: birthDate, field: "administeredDate", calendar: calendar, into: &errors)
        if let batchNumber, batchNumber.trimmingCharacters(in: .whitespaces).isEmpty {
            errors.add("batchNumber", "must not be blank; omit it when unknown")
        }
        // A booster due the same day as the dose it follows is a data-entry slip, so the next
        // due day must be strictly later.
        if let nextDueDate, calendar.startOfDay(for: nextDueDate) <= calendar.startOfDay(for: administeredDate) {
            errors.add("nextDueDate", "must be after the administered date")
        }
        try errors.throwIfAny()
    }

    /// Key under which doses supersede each other: same patient, same vaccine name ignoring
    /// case, accents and spacing.
    var supersessionKey: String { "\(patientID)|\(SearchText.normalize(vaccine))" }
}

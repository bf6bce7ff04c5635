import Foundation
import SharedKernel

/// A drug prescribed by weight: the clinician records the dose rate (mg/kg) and the product's
/// concentration (mg/mL), and the record computes the dose from the patient's latest weight.
public struct Medication: Codable, Hashable, Sendable {
    /// Route of administration.
    public enum Route: String, Codable, Sendable, CaseIterable {
        case oral
        case subcutaneous
        case intramuscular
        case intravenous
        case topical
        case ophthalmic
        case otic
        case intranasal
        case inhaled
        case rectal
        case transdermal
    }

    /// Identifier.
    public var id: Identifier<Medication>
    /// The patient concerned.
    public var patientID: Identifier<Patient>
    /// The drug or product name.
    public var drug: String
    /// Concentration of the product in mg/mL.
    public var concentrationMgPerML: Decimal
    /// Dose rate in mg per kg of body weight.
    public var doseMgPerKg: Decimal
    /// Route of administration.
    public var route: Route
    /// How often, as written on the label ("every 12 hours", "SID").
    public var frequency: String
    /// First day of the course.
    public var startDate: Date
    /// Last day of the course; `nil` for an open-ended course.
    public var endDate: Date?

    /// Creates a medication.
    public init(
        id: Identifier<Medication> = .init(), patientID: Identifier<Patient>, drug: String,
        concentrationMgPerML: Decimal,
        doseMgPerKg: Decimal, route: Route, frequency: String, startDate: Date, endDate: Date? = nil
    ) {
        self.id = id
        self.patientID = patientID
        self.drug = drug
        self.concentrationMgPerML = concentrationMgPerML
        self.doseMgPerKg = doseMgPerKg
        self.route = route
        self.frequency = frequency
        self.startDate = startDate
        self.endDate = endDate
    }

    // MARK: - Course

    /// Whether the course runs on the day containing `date` (start and end days included).
    public func isCurrent(on date: Date, calendar: Calendar = RecordCalendar.utc) -> Bool {
        let day = calendar.startOfDay(for: date)
        guard calendar.startOfDay(for: startDate) <= day else { return false }
        guard let endDate else { return true }
        return day <= calendar.startOfDay(for: endDate)
    }

    // MARK: - Validation

    /// Checks the prescription and reports every bad field. A start in the future is allowed
    /// (a course can be prescribed to begin tomorrow); a start before birth is not.
    public func validate(birthDate: Date? = nil, calendar: Calendar = RecordCalendar.utc) throws(ValidationError) {
        var errors = FieldErrorCollector()
        RecordDateRules.notBlank(drug, field: "drug", into: &errors)
        if concentrationMgPerML <= 0 { errors.add("concentrationMgPerML", "must be greater than zero") }
        if doseMgPerKg <= 0 { errors.add("doseMgPerKg", "must be greater than zero") }
        RecordDateRules.notBlank(frequency, field: "frequency", into: &errors)
        RecordDateRules.notBeforeBirth(
            startDate, birthDate: birthDate, field: "startDate", calendar: calendar, into: &errors)
        if let endDate, calendar.startOfDay(for: endDate) < calendar.startOfDay(for: startDate) {
            errors.add("endDate", "must not be before the start date")
        }
        try errors.throwIfAny()
    }
}

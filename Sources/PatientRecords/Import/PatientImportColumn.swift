/// The columns of the owners-and-patients import file. See ``PatientImportPlan`` for the
/// layout and `docs/import-format.md` for the guide given to practices.
public enum PatientImportColumn: String, CaseIterable, Codable, Sendable {
    case ownerFirstName = "owner_first_name"
    case ownerLastName = "owner_last_name"
    case ownerEmail = "owner_email"
    case ownerPhone = "owner_phone"
    case ownerAddressLine1 = "owner_address_line1"
    case ownerAddressLine2 = "owner_address_line2"
    case ownerCity = "owner_city"
    case ownerPostcode = "owner_postcode"
    case ownerCountry = "owner_country"
    case patientName = "patient_name"
    case species
    case breed
    case sex
    case birthDate = "birth_date"
    case birthDateEstimated = "birth_date_estimated"
    case colour
    case microchip
    case alerts

    /// Columns that may be left out of the header entirely; every other column must be present
    /// (its cells may still be empty where the value is optional).
    public var isOptionalInHeader: Bool {
        switch self {
        case .ownerAddressLine2, .birthDateEstimated: return true
        default: return false
        }
    }

    /// The columns every file's header must name, in the documented order.
    public static var required: [PatientImportColumn] { allCases.filter { !$0.isOptionalInHeader } }

    /// The column reporting a domain validation error, by the field name the domain type uses.
    static func forOwnerField(_ field: String) -> PatientImportColumn? {
        if field.hasPrefix("phones[") { return .ownerPhone }
        switch field {
        case "firstName": return .ownerFirstName
        case "lastName": return .ownerLastName
        case "email": return .ownerEmail
        default: return nil
        }
    }

    /// The column reporting a patient validation error, by the field name the domain type uses.
    static func forPatientField(_ field: String) -> PatientImportColumn? {
        switch field {
        case "name": return .patientName
        case "birthDate": return .birthDate
        case "microchip": return .microchip
        default: return nil
        }
    }
}

import Foundation
import SharedKernel

/// Accumulates valid rows into owners and patients, matching owners across rows and refusing
/// rows that collide with an earlier one.
struct ImportPlanBuilder {
    let now: Date
    let ids: IDGenerator
    let calendar: Calendar

    private(set) var owners: [Owner] = []
    private(set) var patients: [Patient] = []
    private(set) var patientLines: [Identifier<Patient>: Int] = [:]
    private(set) var issues: [ImportRowIssue] = []

    private var ownerByEmail: [String: Int] = [:]
    private var ownerByNameAndPhone: [String: Int] = [:]
    private var ownerLines: [Int] = []
    private var patientLineByKey: [String: Int] = [:]
    private var microchipLines: [String: Int] = [:]

    init(now: Date, ids: IDGenerator, calendar: Calendar) {
        self.now = now
        self.ids = ids
        self.calendar = calendar
    }

    /// Adds one data row, or records why it cannot be imported.
    mutating func add(_ record: CSVRecord, columns: ImportHeader) {
        let row: ImportRow
        switch ImportRow.read(record, header: columns, now: now, ids: ids, calendar: calendar) {
        case .invalid(let issue):
            issues.append(issue)
            return
        case .valid(let read):
            row = read
        }

        var errors = FieldErrorCollector()
        let existing = matchingOwner(row.owner)
        if let existing, SearchText.normalize(owners[existing].fullName) != SearchText.normalize(row.owner.fullName) {
            errors.add(
                PatientImportColumn.ownerEmail.rawValue,
                "is used on line \(ownerLines[existing]) by \(owners[existing].fullName), not \(row.owner.fullName)")
        }
        let ownerIndex = existing ?? owners.count
        let patientKey = "\(ownerIndex)|\(SearchText.normalize(row.patient.name))|\(row.patient.species.rawValue)"
        if let line = patientLineByKey[patientKey] {
            errors.add(
                PatientImportColumn.patientName.rawValue,
                "repeats the \(row.patient.species.rawValue) on line \(line) for the same owner")
        }
        if let chip = row.patient.microchip, let line = microchipLines[chip] {
            errors.add(PatientImportColumn.microchip.rawValue, "is also on line \(line)")
        }
        if !errors.errors.isEmpty {
            issues.append(ImportRowIssue(line: record.line, errors: errors.errors))
            return
        }

        if existing == nil { register(row.owner, line: record.line) }
        var patient = row.patient
        patient.ownerID = owners[ownerIndex].id
        patients.append(patient)
        patientLines[patient.id] = record.line
        patientLineByKey[patientKey] = record.line
        if let chip = patient.microchip { microchipLines[chip] = record.line }
    }

    // MARK: - Owner matching

    /// The index of an earlier owner this row's owner is: by email when the row has one,
    /// otherwise by names and phone digits.
    private func matchingOwner(_ owner: Owner) -> Int? {
        if let email = owner.email { return ownerByEmail[email.lowercased()] }
        return nameAndPhoneKey(owner).flatMap { ownerByNameAndPhone[$0] }
    }

    private mutating func register(_ owner: Owner, line: Int) {
        let index = owners.count
        owners.append(owner)
        ownerLines.append(line)
        if let email = owner.email { ownerByEmail[email.lowercased()] = index }
        // Also reachable by name and phone, so a later row of the same person without the
        // email still joins them; the first owner to claim a key keeps it.
        if let key = nameAndPhoneKey(owner), ownerByNameAndPhone[key] == nil { ownerByNameAndPhone[key] = index }
    }

    private func nameAndPhoneKey(_ owner: Owner) -> String? {
        guard let phone = owner.phones.first.map({ SearchText.phoneDigits($0.number) }), !phone.isEmpty else {
            return nil
        }
        return "\(SearchText.normalize(owner.firstName))|\(SearchText.normalize(owner.lastName))|\(phone)"
    }
}

// MARK: - Index text for owners and patients

extension SearchText {
    /// The text to index for an owner: normalised names, email and address, then the digits
    /// of every phone number, so one full-text query finds an owner by any of them.
    public static func indexText(for owner: Owner) -> String {
        var parts = [owner.firstName, owner.lastName]
        if let email = owner.email { parts.append(email) }
        if let address = owner.address { parts += [address.line1, address.city, address.postcode] }
        let words = parts.map(normalize).filter { !$0.isEmpty }
        let phones = owner.phones.map { phoneDigits($0.number) }.filter { !$0.isEmpty }
        return (words + phones).joined(separator: " ")
    }

    /// The text to index for a patient: normalised name, breed, colour, medical record number
    /// and microchip.
    public static func indexText(for patient: Patient) -> String {
        let parts = [patient.name, patient.breed, patient.colour, patient.medicalRecordNumber, patient.microchip]
            .compactMap { $0 }
        return parts.map(normalize).filter { !$0.isEmpty }.joined(separator: " ")
    }
}

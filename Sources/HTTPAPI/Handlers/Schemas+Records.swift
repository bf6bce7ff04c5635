import Foundation
import PatientRecords
import PracticeServices
import SharedKernel
import StoragePorts

// Conversions between the records domain and the generated wire types.

extension Owner {
    init(wire: Components.Schemas.OwnerInput, id: Identifier<Owner>) {
        self.init(
            id: id, firstName: wire.firstName, lastName: wire.lastName, email: wire.email,
            phones: (wire.phones ?? []).map { PhoneNumber(label: $0.label, number: $0.number) },
            address: wire.address.map {
                PostalAddress(
                    line1: $0.line1, line2: $0.line2, city: $0.city, postcode: $0.postcode, country: $0.country)
            },
            communication: wire.communication.map {
                CommunicationPreferences(
                    preferredChannel: .init(rawValue: $0.preferredChannel.rawValue) ?? .email, reminders: $0.reminders,
                    marketing: $0.marketing)
            } ?? CommunicationPreferences(),
            notes: wire.notes)
    }
}

extension Components.Schemas.Owner {
    init(_ stored: Versioned<Owner>) {
        let owner = stored.value
        self.init(
            value1: .init(
                firstName: owner.firstName, lastName: owner.lastName, email: owner.email,
                phones: owner.phones.map { .init(label: $0.label, number: $0.number) },
                address: owner.address.map {
                    .init(line1: $0.line1, line2: $0.line2, city: $0.city, postcode: $0.postcode, country: $0.country)
                },
                communication: .init(
                    preferredChannel: .init(rawValue: owner.communication.preferredChannel.rawValue)!,
                    reminders: owner.communication.reminders, marketing: owner.communication.marketing),
                notes: owner.notes),
            value2: .init(id: owner.id.description, version: stored.version))
    }
}

extension Patient {
    init(wire: Components.Schemas.PatientInput, id: Identifier<Patient>) throws {
        var errors = FieldErrorCollector()
        var birthDate: Date?
        if let text = wire.birthDate {
            birthDate = RecordCalendar.date(fromISODay: text)
            if birthDate == nil { errors.add("birthDate", "must be a date like 2021-03-14") }
        }
        let owner = Identifier<Owner>(uuidString: wire.ownerId)
        if owner == nil { errors.add("ownerId", "must be an owner id (UUID)") }
        var coOwner: Identifier<Owner>?
        if let text = wire.coOwnerId {
            coOwner = Identifier(uuidString: text)
            if coOwner == nil { errors.add("coOwnerId", "must be an owner id (UUID)") }
        }
        try errors.throwIfAny()
        self.init(
            id: id, name: wire.name, species: Species(rawValue: wire.species.rawValue)!, breed: wire.breed,
            sex: wire.sex.flatMap { Patient.Sex(rawValue: $0.rawValue) } ?? .unknown, birthDate: birthDate,
            birthDateEstimated: wire.birthDateEstimated ?? false, colour: wire.colour, microchip: wire.microchip,
            status: wire.status.flatMap { Patient.Status(rawValue: $0.rawValue) } ?? .active, alerts: wire.alerts ?? [],
            ownerID: owner!, coOwnerID: coOwner)
    }
}

extension Components.Schemas.Patient {
    init(_ stored: Versioned<Patient>, now: Date) {
        let patient = stored.value
        self.init(
            value1: .init(
                name: patient.name, species: .init(rawValue: patient.species.rawValue)!, breed: patient.breed,
                sex: .init(rawValue: patient.sex.rawValue),
                birthDate: patient.birthDate.map { RecordCalendar.isoDay($0) },
                birthDateEstimated: patient.birthDateEstimated, colour: patient.colour, microchip: patient.microchip,
                status: .init(rawValue: patient.status.rawValue), alerts: patient.alerts,
                ownerId: patient.ownerID.description,
                coOwnerId: patient.coOwnerID?.description),
            value2: .init(
                id: patient.id.description, medicalRecordNumber: patient.medicalRecordNumber ?? "",
                age: patient.age(now: now)?.description,
                version: stored.version, breedInCatalogue: patient.breedIsCatalogued,
                warnings: patient.plausibilityWarnings(now: now).map { .init(field: $0.field, message: $0.message) }))
    }
}

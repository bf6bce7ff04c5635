import Foundation
import PatientRecords
import SharedKernel

/// A stored visit record with its version and when it was written.
public struct StoredVisit: Sendable {
    /// The record (diagnoses added to the problem list now carry their problem's id).
    public let visit: Visit
    /// Version (the ETag).
    public let version: Int
    /// When it was written.
    public let createdAt: Date

    /// Creates the value from its parts.
    public init(visit: Visit, version: Int, createdAt: Date) {
        self.visit = visit
        self.version = version
        self.createdAt = createdAt
    }
}

/// One line of the recall list: a vaccination or a visit's follow-up that is due.
public struct Recall: Sendable {
    /// What asks the patient back.
    public enum Kind: String, Sendable {
        case vaccination
        case followUp = "follow_up"
    }

    public let kind: Kind
    public let patientID: Identifier<Patient>
    public let patientName: String?
    public let dueDate: Date
    /// The vaccine, or the reason for the follow-up.
    public let description: String
    /// The vaccination or visit that asks for it.
    public let sourceID: String

    /// Creates the value from its parts.
    public init(
        kind: Kind, patientID: Identifier<Patient>, patientName: String?, dueDate: Date, description: String,
        sourceID: String
    ) {
        self.kind = kind
        self.patientID = patientID
        self.patientName = patientName
        self.dueDate = dueDate
        self.description = description
        self.sourceID = sourceID
    }
}

extension Recall {
    /// The recall list from the vaccinations and the visit follow-ups that are due: soonest
    /// first (ties by the source's id, so the order is stable), named where `patientNames` knows
    /// the patient. The same for either store.
    public static func lists(
        vaccinations: VaccinationDueReport, followUps: FollowUpDueReport,
        patientNames: [Identifier<Patient>: String]
    ) -> (dueSoon: [Recall], overdue: [Recall]) {
        func vaccinationRecall(_ vaccination: Vaccination) -> Recall? {
            guard let due = vaccination.nextDueDate else { return nil }
            return Recall(
                kind: .vaccination, patientID: vaccination.patientID, patientName: patientNames[vaccination.patientID],
                dueDate: due,
                description: vaccination.vaccine, sourceID: vaccination.id.description)
        }
        func followUpRecall(_ recall: FollowUpRecall) -> Recall {
            Recall(
                kind: .followUp, patientID: recall.patientID, patientName: patientNames[recall.patientID],
                dueDate: recall.dueDate,
                description: recall.reason, sourceID: recall.visitID.description)
        }
        let order = { (lhs: Recall, rhs: Recall) in
            lhs.dueDate != rhs.dueDate ? lhs.dueDate < rhs.dueDate : lhs.sourceID < rhs.sourceID
        }
        return (
            (vaccinations.dueSoon.compactMap(vaccinationRecall) + followUps.dueSoon.map(followUpRecall)).sorted(
                by: order),
            (vaccinations.overdue.compactMap(vaccinationRecall) + followUps.overdue.map(followUpRecall)).sorted(
                by: order)
        )
    }
}

extension AuditRecord {
    /// The entry of a read of the vaccinations due, with how many were due and overdue.
    public static func vaccinationsDueRead(_ report: VaccinationDueReport) -> AuditRecord {
        AuditRecord(
            action: .recordVaccinationsDueRead, resourceType: .vaccination,
            detail: "due=\(report.dueSoon.count) overdue=\(report.overdue.count)")
    }

    /// The entry of a read of the recall list, with how many follow-ups were due and overdue.
    public static func recallsRead(_ followUps: FollowUpDueReport) -> AuditRecord {
        AuditRecord(
            action: .recordRecallsRead, resourceType: .patient,
            detail: "follow_ups_due=\(followUps.dueSoon.count) follow_ups_overdue=\(followUps.overdue.count)")
    }
}

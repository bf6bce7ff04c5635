import Foundation
import PatientRecords
import SharedKernel
import Triage

extension TriageContext {
    /// What a patient's medical record adds to a triage: the active problems are the chronic
    /// conditions the complexity score counts. Every path that names a patient (evaluation,
    /// assessment, intake, the command-line tool) builds its context here, so the same patient
    /// and case get the same level, discriminators and complexity everywhere.
    public init(record: MedicalRecord) {
        self.init(chronicConditionCount: record.activeProblems.count)
    }
}

extension MedicalRecordRepository {
    /// Triages `triageCase` for a stored patient, with what their record adds
    /// (``TriageContext/init(record:)``). The caller audits the read of the record.
    ///
    /// - Throws: `DomainError.notFound` when the patient is not in the scope's practice.
    public func triage(
        _ triageCase: TriageCase, patientID: UUID, scope: AccessScope, engine: TriageEngine,
        arrival: Date? = nil
    ) async throws -> TriageResult {
        let (record, _) = try await medicalRecord(scope: scope, patientID: Identifier(patientID))
        return engine.evaluate(triageCase, arrival: arrival, context: TriageContext(record: record))
    }
}

import Foundation
import OpenAPIRuntime
import PatientRecords
import PracticeServices
import SharedKernel
import StoragePorts
import Triage

extension APIHandler {
    // MARK: - Visit records

    func addVisit(_ input: Operations.AddVisit.Input) async throws -> Operations.AddVisit.Output {
        let caller = try await authorize(
            .writeClinical, action: .recordVisitAdd, resourceType: .patient, resourceID: input.path.patientId)
        guard case .json(let body) = input.body, let raw = RequestState.jsonBody else {
            throw APIError.badRequest(field: "body", message: "must be JSON")
        }
        let patientID: Identifier<Patient> = try Self.identifier(input.path.patientId, resource: "patient")
        var errors = FieldErrorCollector()
        // Vitals are read from the bytes sent, with the triage case's own reader and limits.
        var vitals: RecordedVitals?
        do { vitals = try RecordedVitals(jsonData: Data(raw), member: "vitals") } catch {
            error.errors.forEach { errors.add($0.field, $0.message) }
        }
        func uuid(_ text: String?, field: String) -> UUID? {
            guard let text else { return nil }
            guard let id = UUIDText.parse(text) else {
                errors.add(field, "must be a UUID")
                return nil
            }
            return id
        }
        let appointmentID = uuid(body.appointmentId, field: "appointmentId")
        let clinicianID = uuid(body.clinicianId, field: "clinicianId")
        let diagnoses = (body.diagnoses ?? []).enumerated().map { index, item in
            Diagnosis(
                name: item.name, code: item.code,
                certainty: item.certainty.flatMap { Diagnosis.Certainty(rawValue: $0.rawValue) } ?? .confirmed,
                problemID: uuid(item.problemId, field: "diagnoses[\(index)].problemId").map(Identifier.init),
                addToProblemList: item.addToProblemList ?? false)
        }
        let occurredAt = body.occurredAt ?? store.clock.now()
        let visitDay = RecordCalendar.date(fromISODay: RecordCalendar.isoDay(occurredAt)) ?? occurredAt
        let plan = body.treatmentPlan.map { plan in
            TreatmentPlan(
                approaches: plan.approaches.compactMap { TreatmentPlan.Approach(rawValue: $0.rawValue) },
                summary: plan.summary ?? "",
                procedures: (plan.procedures ?? []).map { PlannedProcedure(name: $0.name, notes: $0.notes) },
                prescriptions: plan.prescriptions.map { prescriptions in
                    prescriptions.enumerated().map { index, item in
                        let field = "treatmentPlan.prescriptions[\(index)]"
                        return Medication(
                            patientID: patientID, drug: item.drug,
                            concentrationMgPerML: Self.decimal(item.concentrationMgPerML),
                            doseMgPerKg: Self.decimal(item.doseMgPerKg),
                            route: Medication.Route(rawValue: item.route.rawValue)!,
                            frequency: item.frequency,
                            startDate: Self.day(item.startDate, field: field + ".startDate", errors: &errors)
                                ?? visitDay,
                            endDate: Self.day(item.endDate, field: field + ".endDate", errors: &errors))
                    }
                })
        }
        let followUp = Self.day(body.followUpDate, field: "followUpDate", errors: &errors)
        let visit = Visit(
            patientID: patientID, appointmentID: appointmentID, clinicianID: clinicianID, occurredAt: occurredAt,
            chiefComplaint: body.chiefComplaint, vitalsJSON: vitals?.json, diagnoses: diagnoses, treatmentPlan: plan,
            followUpRequired: body.followUpRequired ?? false, followUpDate: followUp,
            followUpReason: body.followUpReason,
            recordedBy: NoteAuthor(id: caller.account.id, displayName: caller.account.displayName),
            symptoms: body.symptoms?.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
        let stored = try await store.addVisit(
            visit, otherErrors: errors.errors, scope: caller.scope,
            idempotencyKey: try Self.idempotencyKey(input.headers.idempotencyKey, body: body))
        return .created(.init(headers: .init(eTag: Self.etag(stored.version)), body: .json(try Self.wireVisit(stored))))
    }

    func listVisits(_ input: Operations.ListVisits.Input) async throws -> Operations.ListVisits.Output {
        let caller = try await authorize(
            .readRecords, action: .recordVisitsRead, resourceType: .patient, resourceID: input.path.patientId)
        let visits = try await store.visits(
            scope: caller.scope, patientID: try Self.identifier(input.path.patientId, resource: "patient"))
        return .ok(.init(body: .json(.init(items: try visits.map(Self.wireVisit)))))
    }

    func getVisit(_ input: Operations.GetVisit.Input) async throws -> Operations.GetVisit.Output {
        let caller = try await authorize(
            .readRecords, action: .recordVisitRead, resourceType: .patient, resourceID: input.path.patientId)
        let stored = try await store.visit(
            scope: caller.scope, patientID: try Self.identifier(input.path.patientId, resource: "patient"),
            id: try Self.identifier(input.path.visitId, resource: "visit"))
        return .ok(.init(headers: .init(eTag: Self.etag(stored.version)), body: .json(try Self.wireVisit(stored))))
    }

    func listRecallsDue(_ input: Operations.ListRecallsDue.Input) async throws -> Operations.ListRecallsDue.Output {
        let caller = try await authorize(.readRecords, action: .recordRecallsRead, resourceType: .patient)
        let now = store.clock.now()
        let (dueSoon, overdue) = try await store.recalls(
            scope: caller.scope, asOf: now, withinDays: input.query.withinDays ?? 30)
        let wire = { (recall: Recall) in
            Components.Schemas.Recall(
                kind: recall.kind.rawValue, patientId: recall.patientID.description, patientName: recall.patientName,
                dueDate: RecordCalendar.isoDay(recall.dueDate), description: recall.description,
                sourceId: recall.sourceID)
        }
        return .ok(
            .init(
                body: .json(
                    .init(asOf: RecordCalendar.isoDay(now), dueSoon: dueSoon.map(wire), overdue: overdue.map(wire)))))
    }

    // MARK: - Breeds

    func listBreeds(_ input: Operations.ListBreeds.Input) async throws -> Operations.ListBreeds.Output {
        _ = try await authorize(.readRecords, action: .breedsList, resourceType: .patient)
        guard let species = Species(rawValue: input.query.species.rawValue) else {
            throw ValidationError(field: "species", message: "is not a species")
        }
        return .ok(
            .init(body: .json(.init(species: species.rawValue, items: BreedCatalogue.breeds(of: species).sorted()))))
    }

    // MARK: - Wire form

    /// The stored visit in the document's shape (built as JSON, so the vitals go out as the
    /// triage wire form they were checked in).
    static func wireVisit(_ stored: StoredVisit) throws -> Components.Schemas.Visit {
        try VisitWireForm.wire(stored)
    }
}

/// A stored visit's wire form (outside the generic handler: its encodable shapes are local types).
enum VisitWireForm {
    /// The stored visit in the document's shape (built as JSON, so the vitals go out as the
    /// triage wire form they were checked in).
    static func wire(_ stored: StoredVisit) throws -> Components.Schemas.Visit {
        let visit = stored.visit
        struct Wire: Encodable {
            struct WireDiagnosis: Encodable {
                let name: String
                let code: String?
                let certainty: String
                let problemId: String?
            }
            struct WireProcedure: Encodable {
                let name: String
                let notes: String?
            }
            struct WirePrescription: Encodable {
                let id, drug, route, frequency, startDate: String
                let concentrationMgPerML, doseMgPerKg: Double
                let endDate: String?
            }
            struct WirePlan: Encodable {
                let approaches: [String]
                let summary: String
                let procedures: [WireProcedure]
                let prescriptions: [WirePrescription]?
            }
            let id, patientId: String
            let appointmentId, clinicianId: String?
            let occurredAt: String
            let chiefComplaint: String
            let symptoms: [String]
            let diagnoses: [WireDiagnosis]
            let treatmentPlan: WirePlan?
            let followUpRequired: Bool
            let followUpDate, followUpReason, recordedBy: String?
            let createdAt: String
            let version: Int
        }
        let wire = Wire(
            id: visit.id.description, patientId: visit.patientID.description,
            appointmentId: visit.appointmentID.map(UUIDText.lowercase),
            clinicianId: visit.clinicianID.map(UUIDText.lowercase), occurredAt: Timestamp.string(visit.occurredAt),
            chiefComplaint: visit.chiefComplaint,
            symptoms: visit.symptoms ?? [],
            diagnoses: visit.diagnoses.map {
                .init(
                    name: $0.name, code: $0.code, certainty: $0.certainty.rawValue, problemId: $0.problemID?.description
                )
            },
            treatmentPlan: visit.treatmentPlan.map { plan in
                .init(
                    approaches: plan.approaches.map(\.rawValue), summary: plan.summary,
                    procedures: plan.procedures.map { .init(name: $0.name, notes: $0.notes) },
                    prescriptions: plan.prescriptions.map { drugs in
                        drugs.map {
                            .init(
                                id: $0.id.description, drug: $0.drug, route: $0.route.rawValue, frequency: $0.frequency,
                                startDate: RecordCalendar.isoDay($0.startDate),
                                concentrationMgPerML: $0.concentrationMgPerML.contractNumber,
                                doseMgPerKg: $0.doseMgPerKg.contractNumber,
                                endDate: $0.endDate.map { RecordCalendar.isoDay($0) })
                        }
                    })
            },
            followUpRequired: visit.followUpRequired,
            followUpDate: visit.followUpDate.map { RecordCalendar.isoDay($0) },
            followUpReason: visit.followUpReason, recordedBy: visit.recordedBy?.displayName,
            createdAt: Timestamp.string(stored.createdAt),
            version: stored.version)
        var document = try JSONSerialization.jsonObject(with: JSONEncoder().encode(wire)) as? [String: Any] ?? [:]
        if let json = visit.vitalsJSON, let vitals = try? JSONSerialization.jsonObject(with: Data(json.utf8)) {
            document["vitals"] = vitals
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = Timestamp.date(text) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath, debugDescription: "not a timestamp"))
            }
            return date
        }
        return try decoder.decode(Components.Schemas.Visit.self, from: JSONSerialization.data(withJSONObject: document))
    }
}

import Foundation
import OpenAPIRuntime
import PracticeServices
import SharedKernel
import StoragePorts
import Triage

extension APIHandler {
    func evaluateTriage(_ input: Operations.EvaluateTriage.Input) async throws -> Operations.EvaluateTriage.Output {
        let caller = try await authorize(.triage, action: .triageEvaluate, resourceType: .triage)
        guard case .json = input.body, let raw = RequestState.jsonBody else {
            throw APIError.badRequest(field: "body", message: "must be JSON")
        }
        var patientID: UUID?
        if let text = input.query.patientId {
            guard let id = UUIDText.parse(text) else {
                throw ValidationError(field: "patientId", message: "must be a patient id (UUID)")
            }
            patientID = id
        }
        // The bytes the client sent, not the decoded body re-encoded: the case parser refuses
        // what decoding would hide (a duplicate key keeping only its last value).
        let triageCase = try TriageCase(jsonData: Data(raw))
        let engine = TriageEngine(clock: store.clock)
        guard let patientID else { return .ok(.init(body: .json(try Self.wireResult(engine.evaluate(triageCase))))) }
        // Named patient: their record adds to the case exactly as an assessment or intake would.
        let result = try await store.triage(triageCase, patientID: patientID, scope: caller.scope, engine: engine)
        try await auditRead(
            caller, action: .triageEvaluate, resourceType: .patient, resourceID: UUIDText.lowercase(patientID))
        return .ok(.init(body: .json(try Self.wireResult(result))))
    }

    func createAssessment(_ input: Operations.CreateAssessment.Input) async throws -> Operations.CreateAssessment.Output
    {
        let caller = try await authorize(.triage, action: .triageAssess, resourceType: .patient)
        guard case .json(let body) = input.body else {
            throw APIError.badRequest(field: "body", message: "must be JSON")
        }
        guard let patientID = UUIDText.parse(body.patientId) else {
            throw ValidationError(field: "patientId", message: "must be a patient id (UUID)")
        }
        guard let raw = RequestState.jsonBody else { throw APIError.badRequest(field: "body", message: "must be JSON") }
        // Parsed from the bytes sent, like a bare case (see `evaluateTriage`); stored re-encoded.
        let triageCase = try TriageCase(jsonData: Data(raw), member: "case")
        let caseJSON = try JSONEncoder().encode(body._case)
        let now = store.clock.now()
        let arrival = body.arrivalTime ?? now
        if arrival > now.addingTimeInterval(60) {
            throw ValidationError(field: "arrivalTime", message: "must not be in the future")
        }
        let result = try await store.triage(
            triageCase, patientID: patientID, scope: caller.scope,
            engine: TriageEngine(clock: store.clock), arrival: arrival)
        let (stored, _) = try await store.recordAssessment(
            scope: caller.scope, patientID: patientID, caseJSON: caseJSON, result: result,
            arrival: arrival, admitToQueue: true, intakeRanking: nil,
            idempotency: try Self.idempotencyKey(input.headers.idempotencyKey, body: body))
        return .created(.init(body: .json(try Self.wireAssessment(stored, names: [:]))))
    }

    func listAssessments(_ input: Operations.ListAssessments.Input) async throws -> Operations.ListAssessments.Output {
        let caller = try await authorize(
            .readRecords, action: .triageHistoryRead, resourceType: .patient, resourceID: input.path.patientId)
        let patientID = try UUIDText.parse(input.path.patientId).orNotFound("patient")
        let before = try input.query.cursor.map(PageCursor.sequence)
        let page = try await store.assessments(
            scope: caller.scope, patientID: patientID, limit: try Self.pageLimit(input.query.limit), before: before)
        let names = page.items.contains { !$0.overrides.isEmpty } ? try await staffNames(scope: caller.scope) : [:]
        return .ok(
            .init(
                body: .json(
                    .init(
                        items: try page.items.map { try Self.wireAssessment($0, names: names) },
                        nextCursor: page.nextCursor))))
    }

    func getTriageQueue(_ input: Operations.GetTriageQueue.Input) async throws -> Operations.GetTriageQueue.Output {
        let caller = try await authorize(.triage, action: .triageQueueRead, resourceType: .triage)
        let now = store.clock.now()
        let queued = try await store.activeQueue(scope: caller.scope)
        try await auditRead(caller, action: .triageQueueRead, resourceType: .triage, detail: "results=\(queued.count)")
        let byPatient = Dictionary(queued.map { ($0.entry.patientID, $0) }, uniquingKeysWith: { first, _ in first })
        let rows = TriageQueue(entries: queued.map(\.entry)).board(now: now)
        let names = rows.contains { $0.entry.override != nil } ? try await staffNames(scope: caller.scope) : [:]
        return .ok(
            .init(
                body: .json(
                    .init(
                        generatedAt: now,
                        items: rows.map {
                            Self.wireBoardEntry($0, patient: byPatient[$0.entry.patientID], names: names)
                        }))))
    }

    func moveQueueEntry(_ input: Operations.MoveQueueEntry.Input) async throws -> Operations.MoveQueueEntry.Output {
        let caller = try await authorize(
            .triage, action: .triageQueueMove, resourceType: .patient, resourceID: input.path.patientId)
        guard case .json(let body) = input.body else {
            throw APIError.badRequest(field: "body", message: "must be JSON")
        }
        let patientID = try UUIDText.parse(input.path.patientId).orNotFound("queue entry")
        let status = QueueStatus(rawValue: body.status.rawValue)!
        let change = try await store.moveQueueEntry(scope: caller.scope, patientID: patientID, to: status)
        let now = store.clock.now()
        // A finished or departed patient leaves the board; answer with the entry as it now stands.
        if let row = TriageQueue(entries: [change.entry]).board(now: now).first {
            return .ok(.init(body: .json(Self.wireBoardEntry(row, patient: nil, names: [:]))))
        }
        let entry = change.entry
        return .ok(
            .init(
                body: .json(
                    .init(
                        patientId: UUIDText.lowercase(entry.patientID), assessmentId: entry.assessmentID.description,
                        level: entry.level.rawValue,
                        colour: entry.level.colour, arrivalTime: entry.arrival, targetTime: entry.targetTime,
                        minutesLeft: Int((entry.targetTime.timeIntervalSince(now) / 60).rounded(.down)), overdue: false,
                        reassessmentDue: false,
                        override: entry.override.map { Self.wireOverride($0, names: [:]) },
                        loweredRedAwaitingCare: false,
                        status: .init(rawValue: entry.status.rawValue)!,
                        allowedMoves: entry.status.allowedMoves.map { .init(rawValue: $0.rawValue)! }))))
    }

    func overrideAssessment(_ input: Operations.OverrideAssessment.Input) async throws
        -> Operations.OverrideAssessment.Output
    {
        let caller = try await authorize(
            .triage, action: .triageOverride, resourceType: .assessment, resourceID: input.path.assessmentId)
        guard case .json(let body) = input.body else {
            throw APIError.badRequest(field: "body", message: "must be JSON")
        }
        let assessmentID = try Identifier<TriageAssessment>(uuidString: input.path.assessmentId).orNotFound(
            "assessment")
        guard let level = TriageLevel(rawValue: body.level) else {
            throw ValidationError(field: "level", message: "must be a VTL level, 1 (red) to 5 (blue)")
        }
        let request = OverrideRequest(
            level: level, reason: body.reason, confirmLoweringRed: body.confirmLoweringRed ?? false)
        let (stored, _) = try await store.overrideAssessment(
            scope: caller.scope, assessmentID: assessmentID, request: request)
        return .ok(
            .init(body: .json(try Self.wireAssessment(stored, names: try await staffNames(scope: caller.scope)))))
    }

    /// Display names of the practice's staff by account id, for showing who overrode a level.
    func staffNames(scope: AccessScope) async throws -> [String: String] {
        var names: [String: String] = [:]
        var cursor: String?
        repeat {
            let page = try await store.users(scope: scope, limit: 200, after: cursor)
            for account in page.items { names[account.id.description] = account.displayName }
            cursor = page.nextCursor
        } while cursor != nil
        return names
    }

    // MARK: - Wire forms

    static func wireResult(_ result: TriageResult) throws -> Components.Schemas.TriageResult {
        try JSONDecoder().decode(Components.Schemas.TriageResult.self, from: result.encodedJSON(prettyPrinted: false))
    }

    static func wireAssessment(_ stored: StoredAssessment, names: [String: String]) throws
        -> Components.Schemas.Assessment
    {
        .init(
            id: stored.id.description, patientId: UUIDText.lowercase(stored.patientID), assessorId: stored.assessorID,
            arrivalTime: stored.arrival, assessedAt: stored.assessedAt, level: stored.level.rawValue,
            currentLevel: stored.currentLevel.rawValue,
            rulesVersion: stored.rulesVersion,
            result: try JSONDecoder().decode(Components.Schemas.TriageResult.self, from: stored.resultJSON),
            overrides: stored.overrides.map { wireOverride($0, names: names) })
    }

    static func wireOverride(_ override: TriageOverride, names: [String: String]) -> Components.Schemas.TriageOverride {
        .init(
            id: override.id.description, assessmentId: override.assessmentID.description,
            computedLevel: override.computedLevel.rawValue,
            previousLevel: override.previousLevel.rawValue, level: override.level.rawValue,
            direction: .init(rawValue: override.direction.rawValue)!,
            reason: override.reason, overriddenBy: override.overriddenBy,
            overriddenByName: names[override.overriddenBy],
            overriddenAt: override.overriddenAt, lowersRedFinding: override.lowersRedFinding)
    }

    static func wireBoardEntry(_ row: BoardRow, patient: QueuedPatient?, names: [String: String])
        -> Components.Schemas.BoardEntry
    {
        .init(
            position: row.position, patientId: UUIDText.lowercase(row.entry.patientID),
            patientName: patient?.name, medicalRecordNumber: patient?.medicalRecordNumber, species: patient?.species,
            alerts: patient?.alerts, assessmentId: row.entry.assessmentID.description, level: row.entry.level.rawValue,
            colour: row.entry.level.colour, arrivalTime: row.entry.arrival, targetTime: row.targetTime,
            minutesLeft: row.minutesLeft,
            overdue: row.isOverdue, reassessmentDue: row.isReassessmentDue,
            reassessmentDueAt: row.entry.status == .waiting ? row.entry.reassessmentDueAt : nil,
            override: row.entry.override.map { wireOverride($0, names: names) },
            loweredRedAwaitingCare: row.entry.isLoweredRedAwaitingCare,
            status: .init(rawValue: row.entry.status.rawValue)!,
            allowedMoves: row.entry.status.allowedMoves.map { .init(rawValue: $0.rawValue)! })
    }
}

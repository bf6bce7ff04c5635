/// The kinds of resource the audit trail and the event stream name, once: a store, a handler
/// and the domain name a resource by its case, so two paths cannot file the same thing under
/// two spellings. The raw value is the word kept in the trail and sent with an event.
public enum ResourceKind: String, CaseIterable, Codable, Sendable {
    case appointment
    case appointmentType = "appointment_type"
    case assessment
    case audit
    case auditTrail = "audit_trail"
    case clinician
    case document
    case metrics
    case owner
    case patient
    case practice
    case record
    case room
    case schedule
    case session
    case sharedDevice = "shared_device"
    case triage
    case user
    case vaccination
}

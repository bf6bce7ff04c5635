import Foundation
import SharedKernel

// MARK: - The visit an appointment records

extension AppointmentStatus {
    /// Whether a visit record may be written for an appointment in this status: the patient
    /// came (checked in, with the clinician, or done). A booked, cancelled or missed
    /// appointment had no visit to record.
    public var admitsVisitRecord: Bool {
        switch self {
        case .checkedIn, .inProgress, .completed: return true
        case .booked, .cancelled, .noShow: return false
        }
    }
}

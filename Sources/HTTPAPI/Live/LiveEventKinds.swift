import Analytics
import PatientRecords
import Scheduling
import SharedKernel
import Specialists
import Triage

/// Every kind of change a live stream may carry, gathered from the contexts that publish them.
/// The `ready` frame lists them: a browser's EventSource delivers only the named events it
/// listens for, and with the list from the server the web app keeps no copy of it.
enum LiveEventKinds {
    /// The kinds, context by context.
    static let all: [String] =
        AppointmentEventKind.all + ScheduleEventKind.all + TriageEventKind.all + ClinicianEventKind.all
        + RecordEventKind.all + PracticeEventKind.all + [MetricsUpdate.kind]

    /// ``all`` as a JSON array, encoded once.
    static let json = "[" + all.map { "\"\($0)\"" }.joined(separator: ",") + "]"
}

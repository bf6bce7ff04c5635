import Foundation

/// Event kinds of the practice's own settings: every device re-reads the practice when one
/// arrives (hours, grid and closures shape every schedule screen).
public enum PracticeEventKind {
    /// Name, address, time zone, opening hours, grid, buffer, services or retention changed.
    public static let settingsChanged = "practice.settings_changed"
    /// A closure was added: its days leave the free slots.
    public static let closureAdded = "practice.closure_added"
    /// A closure was removed: its days are open again.
    public static let closureRemoved = "practice.closure_removed"

    /// Every kind, for subscribers and documentation.
    public static let all = [settingsChanged, closureAdded, closureRemoved]
}

extension PracticeProfile {
    /// The event for a change of the practice's settings (`kind`), with the settings' new
    /// version and, for a closure, which one and its days.
    public func changeEvent(kind: String, version: Int, closure: PracticeClosure? = nil, occurredAt: Date)
        -> DomainEvent
    {
        var payload = ["version": String(version)]
        if let closure {
            payload["closureID"] = closure.id.description
            payload["firstDay"] = closure.firstDay.description
            payload["lastDay"] = closure.lastDay.description
            payload["recursYearly"] = String(closure.recursYearly)
        }
        return DomainEvent(
            practiceID: id, kind: kind, occurredAt: occurredAt, resourceType: .practice, resourceID: id.description,
            payload: payload)
    }
}

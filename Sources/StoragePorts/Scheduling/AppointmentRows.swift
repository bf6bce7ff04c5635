import Foundation
import Scheduling
import SharedKernel

/// Reading a stored appointment back, as every store and reader does.
public enum AppointmentRows {
    /// The appointment's time and the buffer after it, from its stored start, end and end of
    /// the time it occupies (milliseconds since 1970): refused naming `appointment.end_ms` when
    /// it does not end after it starts, or its occupied time ends before it does.
    public static func time(startMilliseconds: Int64, endMilliseconds: Int64, occupiedEndMilliseconds: Int64) throws
        -> (time: TimeRange, bufferAfterMinutes: Int)
    {
        guard
            let time = TimeRange(
                start: Timestamp.date(milliseconds: startMilliseconds),
                end: Timestamp.date(milliseconds: endMilliseconds)),
            occupiedEndMilliseconds >= endMilliseconds
        else {
            throw StoreCorruption(column: "appointment.end_ms", reason: "does not end after it starts")
        }
        return (time, Int(clamping: (occupiedEndMilliseconds - endMilliseconds) / 60_000))
    }
}

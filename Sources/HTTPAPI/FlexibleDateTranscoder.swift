import Foundation
import OpenAPIRuntime
import SharedKernel

/// RFC 3339 timestamps with or without fractional seconds on input (browsers send
/// milliseconds, people type whole seconds); whole seconds with `Z` on output.
struct FlexibleDateTranscoder: DateTranscoder {
    func encode(_ date: Date) throws -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: .gmt))
    }

    func decode(_ text: String) throws -> Date {
        guard let date = Timestamp.date(text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "'\(text)' is not an RFC 3339 timestamp"))
        }
        return date
    }
}

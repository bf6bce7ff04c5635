import Foundation
import StoragePorts
import Testing

@testable import StoragePostgres

/// The memo of decoded booking columns answers from the text it is given, never from an
/// earlier text: a practice that changes its settings books on the new ones at once.
@Suite("PostgreSQL: booking columns decoded once per text")
struct DecodedColumnMemoTests {
    /// A column's JSON as a booking reads it.
    struct Hours: Codable, Equatable {
        let opens: Int
    }

    @Test("a changed text is decoded anew, the same text answers alike, and columns do not share entries")
    func changedTextIsNew() throws {
        let memo = DecodedColumnMemo()
        #expect(try memo.decoded(Hours.self, from: #"{"opens":8}"#, column: "practice.profile") == Hours(opens: 8))
        #expect(try memo.decoded(Hours.self, from: #"{"opens":9}"#, column: "practice.profile") == Hours(opens: 9))
        #expect(try memo.decoded(Hours.self, from: #"{"opens":8}"#, column: "practice.profile") == Hours(opens: 8))
        // The same text under another column, asked as another type, is that type's answer.
        struct Other: Codable, Equatable { let opens: Double }
        #expect(try memo.decoded(Other.self, from: #"{"opens":8}"#, column: "clinician.definition") == Other(opens: 8))
    }

    @Test("a text that does not decode is refused naming its column every time, and a full memo starts again")
    func refusedAndBounded() throws {
        let memo = DecodedColumnMemo(capacity: 2)
        for _ in 0..<2 {
            #expect {
                try memo.decoded(Hours.self, from: #"{"opens":"eight"}"#, column: "practice.profile")
            } throws: { ($0 as? StoreCorruption)?.column == "practice.profile" }
        }
        // Past its capacity every text still reads as itself.
        for opens in 0..<5 {
            #expect(
                try memo.decoded(Hours.self, from: #"{"opens":\#(opens)}"#, column: "practice.profile")
                    == Hours(opens: opens))
        }
        #expect(try memo.decoded(Hours.self, from: #"{"opens":0}"#, column: "practice.profile") == Hours(opens: 0))
    }
}

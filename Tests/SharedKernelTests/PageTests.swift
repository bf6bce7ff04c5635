import Foundation
import SharedKernel
import Testing

/// A listing reads one item more than its page holds, to know whether a next page exists.
@Suite("Pages read one item past their limit")
struct PageTests {
    @Test("the first `limit` items are shown; a cursor names the last shown only when more were read")
    func fetchedOneMore() {
        let more = Page(fetched: [1, 2, 3, 4], limit: 3) { "after \($0)" }
        #expect(more.items == [1, 2, 3] && more.nextCursor == "after 3")

        let exact = Page(fetched: [1, 2, 3], limit: 3) { "after \($0)" }
        #expect(exact.items == [1, 2, 3] && exact.nextCursor == nil)

        let short = Page(fetched: [1], limit: 3) { "after \($0)" }
        #expect(short.items == [1] && short.nextCursor == nil)

        // No items shown, so nothing to continue after, whatever was read.
        for limit in [0, -5] {
            let empty = Page(fetched: [1, 2], limit: limit) { "after \($0)" }
            #expect(empty.items.isEmpty && empty.nextCursor == nil)
        }
    }

    @Test("a cursor reads as the id or place its list gives out, and anything else is refused naming it")
    func cursors() throws {
        let id = UUID()
        #expect(try PageCursor.identifier(id.uuidString) == id)
        #expect(try PageCursor.identifier(id.uuidString.lowercased()) == id)
        #expect(try PageCursor.sequence("42") == 42)
        #expect(try PageCursor.sequence("999999999999999999") == 999_999_999_999_999_999)
        for stray in ["", "rex", "\(id.uuidString)x", "1"] {
            #expect(throws: ValidationError.unknownCursor, "id cursor \(stray)") { try PageCursor.identifier(stray) }
        }
        // Signs, spaces, other digits and numbers past 18 digits are no place in a list.
        for stray in ["", "-5", "+5", " 5", "٥", "1e3", "9223372036854775808", "0x10"] {
            #expect(throws: ValidationError.unknownCursor, "sequence cursor \(stray)") {
                try PageCursor.sequence(stray)
            }
        }
        #expect(ValidationError.unknownCursor.errors.map(\.field) == ["cursor"])
    }
}

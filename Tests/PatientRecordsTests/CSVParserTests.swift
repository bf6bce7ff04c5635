import Foundation
import PatientRecords
import Testing

@Suite("RFC 4180 CSV parser")
struct CSVParserTests {
    @Test(
        "fields, quotes, embedded separators and line endings",
        arguments: [
            ("a,b,c", [["a", "b", "c"]]),
            ("a,b\r\nc,d\r\n", [["a", "b"], ["c", "d"]]),
            ("a,b\nc,d", [["a", "b"], ["c", "d"]]),
            ("a,b\rc,d\r", [["a", "b"], ["c", "d"]]),
            ("\"a,b\",c", [["a,b", "c"]]),
            ("\"say \"\"hi\"\"\",x", [["say \"hi\"", "x"]]),
            ("\"line1\r\nline2\",x\r\ny,z", [["line1\r\nline2", "x"], ["y", "z"]]),
            ("\"\",x,", [["", "x", ""]]),
            (",,", [["", "", ""]]),
            ("a\n\nb", [["a"], [""], ["b"]]),
            ("\u{FEFF}name,species\nRex,dog", [["name", "species"], ["Rex", "dog"]]),
            ("Zoë,🐕\n", [["Zoë", "🐕"]]),
            ("", []),
        ])
    func parse(text: String, expected: [[String]]) throws {
        #expect(try CSVParser.parse(text).map(\.fields) == expected)
    }

    @Test("each record knows the line it starts on, counting line breaks inside quotes")
    func lineNumbers() throws {
        let text = "h1,h2\r\n\"two\nlines\",x\r\nplain,y\r\n\"three\r\nline\r\nnote\",z\r\nlast,w"
        #expect(try CSVParser.parse(text).map(\.line) == [1, 2, 4, 5, 8])
    }

    @Test(
        "malformed quoting is refused with the line",
        arguments: [
            ("a,b\n\"open,c\nd", CSVError.Kind.unterminatedQuote, 2),
            ("a,b\nc,d\"e", .quoteInUnquotedField, 2),
            ("a\n\"x\nx\"y,b", .textAfterClosingQuote, 3),
        ])
    func malformed(text: String, kind: CSVError.Kind, line: Int) {
        #expect(throws: CSVError(kind: kind, line: line)) { try CSVParser.parse(text) }
    }

    @Test("blank records are recognised so imports can skip them")
    func blank() throws {
        let records = try CSVParser.parse("a,b\n,\n\nc,d")
        #expect(records.map(\.isBlank) == [false, true, true, false])
    }
}

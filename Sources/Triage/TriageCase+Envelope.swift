import Foundation
import SharedKernel

// MARK: - A case inside a larger request

extension TriageCase {
    /// Parses the case held in member `member` of a JSON object, such as the `case` of a stored
    /// assessment request (`{"patientId": …, "case": {…}}`), from the bytes the client sent.
    ///
    /// The whole document goes through the same strict reader as a bare case, so a duplicate
    /// key anywhere in it is refused, and the case's own rules apply unchanged: one case gives
    /// one answer whether it arrives alone, inside an assessment, or through the command line.
    /// Field paths are prefixed with the member name (`case.vitals.heartRate`); a document that
    /// is not well-formed JSON is reported against `body`.
    public init(jsonData data: Data, member: String) throws(ValidationError) {
        let root: JSONValue
        do {
            root = try JSONReader.parse([UInt8](data))
        } catch {
            throw ValidationError(field: "body", message: "malformed JSON at byte \(error.offset): \(error.message)")
        }
        guard case .object(let members) = root else {
            throw ValidationError(field: "body", message: "must be an object")
        }
        guard let value = members.first(where: { $0.key == member })?.value else {
            throw ValidationError(field: member, message: "is required")
        }
        do {
            try self.init(root: value)
        } catch {
            throw ValidationError(
                error.errors.map {
                    FieldError(field: $0.field == "$" ? member : "\(member).\($0.field)", message: $0.message)
                })
        }
    }
}

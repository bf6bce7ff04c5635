import Foundation

/// One page of a list, with the opaque cursor of the next page (`nil` on the last page).
public struct Page<Item: Sendable>: Sendable {
    /// The items of this page.
    public var items: [Item]
    /// Pass as `cursor` to get the next page; `nil` when there is none.
    public var nextCursor: String?

    /// Creates a page.
    public init(items: [Item], nextCursor: String?) {
        self.items = items
        self.nextCursor = nextCursor
    }

    /// A page from `fetched`, read as up to `limit + 1` items so that one more says a next
    /// page exists: the first `limit` items (none for a negative limit), and, when more were
    /// read, the cursor that `cursor` names for the last item shown.
    public init(fetched: some Collection<Item>, limit: Int, cursor: (Item) -> String) {
        let shown = Array(fetched.prefix(max(limit, 0)))
        self.init(items: shown, nextCursor: fetched.count > shown.count ? shown.last.map(cursor) : nil)
    }

    /// The page with its items transformed.
    public func map<T: Sendable>(_ transform: (Item) throws -> T) rethrows -> Page<T> {
        Page<T>(items: try items.map(transform), nextCursor: nextCursor)
    }
}

extension Page: Equatable where Item: Equatable {}

/// A cursor handed back by a client, read as the kind of cursor its list gives out. Every list
/// refuses one that is not a cursor at all in the same words (``ValidationError/unknownCursor``,
/// naming `cursor`), and an id cursor naming no item of the list in the caller's practice as
/// any other such id (``namesNothing``, not found) — never with an empty page that would look
/// like the end of the list.
public enum PageCursor {
    /// The refusal of an id cursor that names no item of the list in the caller's practice.
    public static let namesNothing = DomainError.notFound(resource: "cursor")

    /// An id cursor (the last item of the previous page): refused unless it is a UUID.
    public static func identifier(_ cursor: String) throws(ValidationError) -> UUID {
        guard let id = UUIDText.parse(cursor) else { throw .unknownCursor }
        return id
    }

    /// A place in a sequence: refused unless it is 1 to 18 decimal digits (so it fits an `Int64`).
    public static func sequence(_ cursor: String) throws(ValidationError) -> Int64 {
        guard (1...18).contains(cursor.utf8.count), cursor.utf8.allSatisfy({ (48...57).contains($0) }),
            let value = Int64(cursor)
        else { throw .unknownCursor }
        return value
    }
}

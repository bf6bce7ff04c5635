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

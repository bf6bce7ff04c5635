/// A value with its optimistic-concurrency version, which the API exposes as the `ETag`.
public struct Versioned<Value: Sendable>: Sendable {
    /// The value.
    public var value: Value
    /// Incremented by every change; an update naming an older version is refused.
    public var version: Int

    /// Creates a versioned value.
    public init(_ value: Value, version: Int) {
        self.value = value
        self.version = version
    }
}

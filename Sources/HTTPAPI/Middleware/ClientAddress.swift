import Foundation

/// Which peers may say who the client is: a reverse proxy in front of VetNet connects from its
/// own address and names the client in `X-Forwarded-For`. Only a peer in one of these networks
/// is believed; anyone else's header is ignored, so a client cannot pick its own address (and
/// with it its sign-in allowance).
public struct TrustedProxies: Sendable, Equatable {
    /// One network: an address and a prefix length.
    struct Network: Sendable, Equatable {
        let bytes: [UInt8]
        let prefix: Int

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            var left = prefix
            for index in bytes.indices where left > 0 {
                let bits = min(8, left)
                let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
                if address[index] & mask != bytes[index] & mask { return false }
                left -= bits
            }
            return true
        }
    }

    let networks: [Network]

    /// No proxy is trusted: the peer's address is the client's.
    public static let none = TrustedProxies(networks: [])

    init(networks: [Network]) { self.networks = networks }

    /// Reads networks like `10.0.0.0/8`, `127.0.0.1` or `fd00::/8`, separated by commas.
    ///
    /// - Throws: ``ValidationError``-style text naming the entry that is not a network.
    public init(parsing text: String) throws(TrustedProxiesError) {
        var networks: [Network] = []
        for entry in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !entry.isEmpty {
            let parts = entry.split(separator: "/", maxSplits: 1).map(String.init)
            guard let bytes = Self.bytes(of: parts[0]) else { throw TrustedProxiesError(entry: entry) }
            let prefix = parts.count == 2 ? Int(parts[1]) : bytes.count * 8
            guard let prefix, (0...(bytes.count * 8)).contains(prefix) else { throw TrustedProxiesError(entry: entry) }
            networks.append(Network(bytes: bytes, prefix: prefix))
        }
        self.networks = networks
    }

    /// The client's address: `peer` itself, unless `peer` is a trusted proxy; then the
    /// right-most address of `forwardedFor` that is not a trusted proxy (the left-most when
    /// all are), since each proxy appends the address it received the request from.
    public func client(peer: String, forwardedFor: String?) -> String {
        guard !networks.isEmpty, isTrusted(peer), let forwardedFor else { return peer }
        let hops = forwardedFor.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            Self.bytes(of: $0) != nil
        }
        guard !hops.isEmpty else { return peer }
        return hops.last { !isTrusted($0) } ?? hops[0]
    }

    func isTrusted(_ address: String) -> Bool {
        guard let bytes = Self.bytes(of: address) else { return false }
        return networks.contains { $0.contains(bytes) }
    }

    /// The bytes of an IPv4 or IPv6 address; `nil` for anything else.
    static func bytes(of text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }
}

/// An entry of the trusted-proxy list that is not an address or network.
public struct TrustedProxiesError: Error, CustomStringConvertible {
    /// The entry.
    public let entry: String

    public var description: String {
        "'\(entry)' is not an IP address or network (e.g. 10.0.0.0/8, 127.0.0.1, fd00::/8)"
    }
}

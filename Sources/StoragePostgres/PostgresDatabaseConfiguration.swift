import Foundation
import PostgresNIO

/// Where the PostgreSQL store connects, read from a `postgres://` URL
/// (`--database` or `VETNET_DATABASE_URL`): `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`
/// with the query options `sslmode=disable|prefer|require` and `pool=N` (connections, 1–200).
public struct PostgresDatabaseConfiguration: Sendable, Equatable {
    /// Server host name or address.
    public var host: String
    /// Server port.
    public var port: Int
    /// Role to connect as.
    public var username: String
    /// Its password, if the server asks for one. Never printed (see ``redacted``).
    public var password: String?
    /// Database name.
    public var database: String
    /// Whether to use TLS.
    public var tls: TLSMode
    /// Most connections the pool opens.
    public var maximumConnections: Int

    /// TLS use.
    public enum TLSMode: String, Sendable, Equatable {
        case disable, prefer, require
    }

    /// A URL that cannot be used, naming the part and the reason.
    public struct InvalidURL: Error, CustomStringConvertible, Equatable {
        /// The part of the URL at fault.
        public let part: String
        /// Why.
        public let reason: String
        public var description: String { "database URL: \(part) \(reason)" }
    }

    /// Parses `text`; the password never appears in an error.
    public init(url text: String) throws(InvalidURL) {
        guard let components = URLComponents(string: text) else {
            throw InvalidURL(part: "the URL", reason: "is not a URL")
        }
        guard components.scheme == "postgres" || components.scheme == "postgresql" else {
            throw InvalidURL(part: "the scheme", reason: "must be postgres:// or postgresql://")
        }
        guard let host = components.host, !host.isEmpty else {
            throw InvalidURL(part: "the host", reason: "is missing")
        }
        guard let user = components.user, !user.isEmpty else {
            throw InvalidURL(part: "the user", reason: "is missing")
        }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else {
            throw InvalidURL(part: "the database name", reason: "is missing")
        }
        let port = components.port ?? 5432
        guard (1...65_535).contains(port) else { throw InvalidURL(part: "the port", reason: "must be 1–65535") }
        var tls = TLSMode.prefer
        var pool = 20
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                guard let mode = item.value.flatMap(TLSMode.init(rawValue:)) else {
                    throw InvalidURL(part: "sslmode", reason: "must be disable, prefer or require")
                }
                tls = mode
            case "pool":
                guard let value = item.value.flatMap(Int.init), (1...200).contains(value) else {
                    throw InvalidURL(part: "pool", reason: "must be a whole number of connections from 1 to 200")
                }
                pool = value
            default:
                throw InvalidURL(part: "the option \(item.name)", reason: "is not known (sslmode, pool)")
            }
        }
        self.host = host
        self.port = port
        self.username = user
        self.password = components.password
        self.database = database
        self.tls = tls
        self.maximumConnections = pool
    }

    /// The URL with the password replaced, for logs and messages.
    public var redacted: String {
        "postgres://\(username)\(password == nil ? "" : ":***")@\(host):\(port)/\(database)"
    }

    /// The pool configuration PostgresNIO takes.
    package var clientConfiguration: PostgresClient.Configuration {
        let mode: PostgresClient.Configuration.TLS
        switch tls {
        case .disable: mode = .disable
        case .prefer: mode = .prefer(.makeClientConfiguration())
        case .require: mode = .require(.makeClientConfiguration())
        }
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: username, password: password,
            database: database, tls: mode)
        configuration.options.maximumConnections = maximumConnections
        return configuration
    }
}

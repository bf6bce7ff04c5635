import Foundation
import HummingbirdTLS
import Logging
import NIOSSL
import ServiceLifecycle
import Synchronization
import UnixSignals

/// The server's own TLS: its certificate chain and private key, read from PEM files, with
/// TLS 1.2 as the oldest version offered and the TLS library's default cipher suites (forward
/// secret AEAD ciphers only; no RC4, 3DES, CBC-SHA1 or export suites).
///
/// The pair is read again on `SIGHUP` (``CertificateReloadService``): every new handshake then
/// presents the new certificate, connections already open keep theirs, nothing is dropped. A
/// pair that cannot be read leaves the current one in use.
public final class ServerCertificate: Sendable {
    /// A certificate or key that cannot be used, naming the option that gave it.
    public struct Refusal: Error, CustomStringConvertible {
        /// The command-line option at fault (`--tls-cert`, `--tls-key`).
        public let option: String
        /// Why.
        public let reason: String
        public var description: String { "\(option): \(reason)" }
    }

    /// Where the chain (the server's certificate first, then intermediates) and its key are read from.
    public let certificatePath: String, keyPath: String
    private let current: Mutex<(chain: [NIOSSLCertificate], key: NIOSSLPrivateKey)>

    /// Reads the pair; refused naming the option when either cannot be used.
    public init(certificatePath: String, keyPath: String) throws {
        self.certificatePath = certificatePath
        self.keyPath = keyPath
        current = Mutex(try Self.read(certificatePath: certificatePath, keyPath: keyPath))
    }

    /// Reads the files again and uses them for every handshake from now on; on a refusal the
    /// pair in use stays.
    public func reload() throws {
        let pair = try Self.read(certificatePath: certificatePath, keyPath: keyPath)
        current.withLock { $0 = pair }
    }

    /// The configuration the server is built with: the pair read first, and a callback that
    /// hands each handshake the pair in use at that moment.
    var configuration: TLSConfiguration {
        let (chain, key) = current.withLock { $0 }
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        configuration.minimumTLSVersion = .tlsv12
        configuration.sslContextCallback = { [self] _, promise in
            let (chain, key) = current.withLock { $0 }
            var override = NIOSSLContextConfigurationOverride()
            override.certificateChain = chain.map { .certificate($0) }
            override.privateKey = .privateKey(key)
            promise.succeed(override)
        }
        return configuration
    }

    private static func read(certificatePath: String, keyPath: String) throws -> (
        chain: [NIOSSLCertificate], key: NIOSSLPrivateKey
    ) {
        guard FileManager.default.isReadableFile(atPath: certificatePath) else {
            throw Refusal(option: "--tls-cert", reason: "\(certificatePath) is not a readable file")
        }
        guard FileManager.default.isReadableFile(atPath: keyPath) else {
            throw Refusal(option: "--tls-key", reason: "\(keyPath) is not a readable file")
        }
        let chain = (try? NIOSSLCertificate.fromPEMFile(certificatePath)) ?? []
        guard !chain.isEmpty else {
            throw Refusal(option: "--tls-cert", reason: "\(certificatePath) holds no PEM certificate")
        }
        // The key's bytes never appear in an error: only that it could not be read.
        guard let key = try? NIOSSLPrivateKey(file: keyPath, format: .pem) else {
            throw Refusal(
                option: "--tls-key", reason: "\(keyPath) holds no PEM private key (an encrypted key is not supported)")
        }
        return (chain, key)
    }
}

/// Reads the server's certificate again on each `SIGHUP` (a renewal), without a restart.
struct CertificateReloadService: Service {
    let certificate: ServerCertificate
    let logger: Logger

    func run() async throws {
        let signals = await UnixSignalsSequence(trapping: .sighup)
        for await _ in signals.cancelOnGracefulShutdown() {
            do {
                try certificate.reload()
                logger.info("TLS certificate reloaded", metadata: ["certificate": "\(certificate.certificatePath)"])
            } catch {
                logger.error(
                    "TLS certificate not reloaded; the current one stays in use", metadata: ["reason": "\(error)"])
            }
        }
    }
}

import Foundation
import HummingbirdTLS

/// The server's own TLS: its certificate chain and private key, read from PEM files, with
/// TLS 1.2 as the oldest version offered and the TLS library's default cipher suites (forward
/// secret AEAD ciphers only; no RC4, 3DES, CBC-SHA1 or export suites).
public enum ServerTLS {
    /// A certificate or key that cannot be used, naming the option that gave it.
    public struct Refusal: Error, CustomStringConvertible {
        /// The command-line option at fault (`--tls-cert`, `--tls-key`).
        public let option: String
        /// Why.
        public let reason: String
        public var description: String { "\(option): \(reason)" }
    }

    /// The configuration for a certificate chain at `certificatePath` (the server's first, then
    /// intermediates) and its private key at `keyPath`, both PEM.
    public static func configuration(certificatePath: String, keyPath: String) throws -> TLSConfiguration {
        guard FileManager.default.isReadableFile(atPath: certificatePath) else {
            throw Refusal(option: "--tls-cert", reason: "\(certificatePath) is not a readable file")
        }
        guard FileManager.default.isReadableFile(atPath: keyPath) else {
            throw Refusal(option: "--tls-key", reason: "\(keyPath) is not a readable file")
        }
        let chain: [NIOSSLCertificate]
        do { chain = try NIOSSLCertificate.fromPEMFile(certificatePath) } catch {
            throw Refusal(option: "--tls-cert", reason: "\(certificatePath) holds no PEM certificate")
        }
        guard !chain.isEmpty else {
            throw Refusal(option: "--tls-cert", reason: "\(certificatePath) holds no PEM certificate")
        }
        let key: NIOSSLPrivateKey
        // The key's bytes never appear in an error: only that it could not be read.
        do { key = try NIOSSLPrivateKey(file: keyPath, format: .pem) } catch {
            throw Refusal(
                option: "--tls-key", reason: "\(keyPath) holds no PEM private key (an encrypted key is not supported)")
        }
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        configuration.minimumTLSVersion = .tlsv12
        return configuration
    }
}

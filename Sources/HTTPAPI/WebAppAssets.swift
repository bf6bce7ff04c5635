import Crypto
import Foundation
import NIOCore

/// The staff web app's files (`Sources/HTTPAPI/WebApp`, a bundle resource), read once into
/// memory and keyed by the exact URL path that serves them: `index.html` at `/`, everything
/// under `app/` at `/app/…`.
///
/// Only these keys are ever served, so no request path reaches the file system: `..`,
/// percent-encodings and symbolic links cannot name anything outside the map.
struct WebAppAssets: Sendable {
    /// One file, ready to send.
    struct Asset: Sendable {
        /// The file's bytes.
        let body: ByteBuffer
        /// Its media type.
        let contentType: String
        /// A strong entity tag of the content, quoted.
        let etag: String
    }

    /// Files by URL path.
    let files: [String: Asset]

    /// The app bundled with the server (empty when the resource is missing, so `/` answers 404).
    static let bundled = WebAppAssets(directory: Bundle.module.url(forResource: "WebApp", withExtension: nil))

    /// Reads every regular file below `directory`.
    init(directory: URL?) {
        var files: [String: Asset] = [:]
        guard let directory, let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey],
                                                                           options: [.skipsHiddenFiles]) else {
            self.files = [:]
            return
        }
        let root = directory.standardizedFileURL.resolvingSymlinksInPath().path
        for case let url as URL in walker {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
                  let data = try? Data(contentsOf: url) else { continue }
            let full = url.standardizedFileURL.resolvingSymlinksInPath().path
            guard full.hasPrefix(root + "/") else { continue }
            let relative = String(full.dropFirst(root.count + 1))
            let path: String
            if relative == "index.html" { path = "/" } else if relative.hasPrefix("app/") { path = "/" + relative } else { continue }
            let digest = SHA256.hash(data: data).prefix(12).map { String(format: "%02x", $0) }.joined()
            files[path] = Asset(body: ByteBuffer(bytes: data), contentType: Self.contentType(of: relative), etag: "\"\(digest)\"")
        }
        self.files = files
    }

    /// The media type for a file name's extension.
    static func contentType(of name: String) -> String {
        switch name.split(separator: ".").last.map({ $0.lowercased() }) ?? "" {
        case "html": return "text/html; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "ico": return "image/x-icon"
        case "json", "webmanifest": return "application/json"
        case "txt": return "text/plain; charset=utf-8"
        default: return "application/octet-stream"
        }
    }
}

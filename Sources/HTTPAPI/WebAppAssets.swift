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
        guard let directory,
            let walker = FileManager.default.enumerator(
                at: directory, includingPropertiesForKeys: [.isRegularFileKey],
                options: [.skipsHiddenFiles])
        else {
            self.files = [:]
            return
        }
        let root = directory.standardizedFileURL.resolvingSymlinksInPath().path
        for case let url as URL in walker {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
                let data = try? Data(contentsOf: url)
            else { continue }
            let full = url.standardizedFileURL.resolvingSymlinksInPath().path
            guard full.hasPrefix(root + "/") else { continue }
            let relative = String(full.dropFirst(root.count + 1))
            let path: String
            if relative == "index.html" {
                path = "/"
            } else if relative.hasPrefix("app/") {
                path = "/" + relative
            } else {
                continue
            }
            let digest = SHA256.hash(data: data).prefix(12).map { String(format: "%02x", $0) }.joined()
            files[path] = Asset(
                body: ByteBuffer(bytes: data), contentType: Self.contentType(of: relative), etag: "\"\(digest)\"")
        }
        if let worker = files[Self.serviceWorkerSource] {
            files[Self.serviceWorkerPath] = Self.serviceWorker(worker, for: files)
        }
        self.files = files
    }

    /// Where the offline worker's code lives in the bundle.
    static let serviceWorkerSource = "/app/sw.js"
    /// Where it is served: at the root, so its scope is the whole app.
    static let serviceWorkerPath = "/sw.js"

    /// The service worker as served: its code after a first line naming this build's files and
    /// their combined version. A new server build changes that line, so the browser installs
    /// the new worker, which caches the new files whole before it takes over; an old tab keeps
    /// the old set until it is restarted (never half of each).
    static func serviceWorker(_ source: Asset, for files: [String: Asset]) -> Asset {
        let shell = files.keys.filter { $0 != serviceWorkerSource }.sorted()
        let version = SHA256.hash(
            data: Data(files.keys.sorted().map { $0 + "=" + (files[$0]?.etag ?? "") }.joined(separator: "\n").utf8)
        )
        .prefix(12).map { String(format: "%02x", $0) }.joined()
        let list = shell.map { "\"\($0)\"" }.joined(separator: ",")
        var body = ByteBuffer(string: "const ASSET_VERSION = \"\(version)\"; const ASSET_FILES = [\(list)];\n")
        var code = source.body
        body.writeBuffer(&code)
        return Asset(body: body, contentType: source.contentType, etag: "\"\(version)\"")
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

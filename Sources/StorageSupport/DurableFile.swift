import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes files so that, once a call returns, their content survives a crash or power loss:
/// data flushed before the rename that publishes it, and the directory flushed after, so the
/// new name itself is durable. (Foundation's atomic write renames but does not flush.)
package enum DurableFile {
    /// A failed system call, with the path and `errno`.
    package struct Failure: Error, CustomStringConvertible {
        package let operation: String
        package let path: String
        package let code: Int32
        package init(operation: String, path: String, code: Int32) {
            self.operation = operation
            self.path = path
            self.code = code
        }
        package var description: String { "\(operation) \(path) failed: \(String(cString: strerror(code)))" }
    }

    /// Creates `url` (which must not exist) with `mode`, writes `data` and flushes it.
    package static func create(_ data: Data, at url: URL, mode: mode_t) throws {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw Failure(operation: "create", path: url.path, code: errno) }
        defer { close(descriptor) }
        try data.withUnsafeBytes { try writeAll($0, to: descriptor, path: url.path) }
        guard fsync(descriptor) == 0 else { throw Failure(operation: "fsync", path: url.path, code: errno) }
    }

    /// Writes every byte of `buffer` to `descriptor`, retrying short and interrupted writes.
    package static func writeAll(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32, path: String) throws {
        guard let base = buffer.baseAddress else { return }
        var offset = 0
        while offset < buffer.count {
            let written = write(descriptor, base + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw Failure(operation: "write", path: path, code: errno)
            }
            offset += written
        }
    }

    /// Renames `temporary` over `target` and flushes the directory that holds them.
    package static func replace(_ target: URL, with temporary: URL) throws {
        guard rename(temporary.path, target.path) == 0 else {
            throw Failure(operation: "rename", path: target.path, code: errno)
        }
        try syncDirectory(target.deletingLastPathComponent())
    }

    /// Flushes a directory's entries (new, renamed or removed names).
    package static func syncDirectory(_ directory: URL) throws {
        let descriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(operation: "open", path: directory.path, code: errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw Failure(operation: "fsync", path: directory.path, code: errno) }
    }
}

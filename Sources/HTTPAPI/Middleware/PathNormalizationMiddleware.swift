import HTTPTypes
import Hummingbird

/// Answers 404 to a path that is not in canonical form — an empty segment (`//api/v1/me`,
/// a trailing `/`) or a `.` or `..` segment, percent-encoded or not — before authentication
/// or any handler sees it.
///
/// The router splits paths on `/` and skips empty segments, so `//api/v1/me` reaches the
/// handler of `/api/v1/me`, while a middleware reading the raw path (authentication checks
/// its `/api/v1/` prefix) would not recognise it. Rewriting the request is not possible here
/// (Hummingbird routes before router middleware run, and a request's URI is fixed), and a
/// redirect would invite clients to send credentials to a second URL; refusing is the safe
/// answer, and no client of the documented API ever sends such a path.
struct PathNormalizationMiddleware: RouterMiddleware {
    typealias Context = VetNetRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard Self.isCanonical(request.uri.path) else {
            throw HTTPError(.notFound, message: "No resource has this path: paths have no empty, '.' or '..' segments.")
        }
        return try await next(request, context)
    }

    /// Whether `path` is `/` or `/`-separated non-empty segments, none of them `.` or `..`.
    static func isCanonical(_ path: String) -> Bool {
        guard path.hasPrefix("/") else { return false }
        if path == "/" { return true }
        return path.dropFirst().split(separator: "/", omittingEmptySubsequences: false).allSatisfy { segment in
            let decoded = segment.lowercased().replacingOccurrences(of: "%2e", with: ".")
            return !segment.isEmpty && decoded != "." && decoded != ".."
        }
    }
}

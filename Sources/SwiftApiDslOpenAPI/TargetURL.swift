#if OpenAPI
import Foundation
import HTTPTypes

/// The URL of a generated operation: the server URL followed by the request target exactly as
/// the generated code wrote it (its percent-encoding and query untouched).
enum TargetURL {
    static func url(of request: HTTPRequest, relativeTo baseURL: URL) throws -> URL {
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        let target = request.path ?? ""
        let joined = target.isEmpty || target.hasPrefix("/") || target.hasPrefix("?") ? base + target : base + "/" + target
        guard let url = URL(string: joined) else {
            throw InvalidTarget(target: target)
        }
        return url
    }

    /// A request target that does not form a URL with the server URL.
    struct InvalidTarget: Error, CustomStringConvertible {
        let target: String
        var description: String { "the request target \(target.debugDescription) does not form a URL with the server URL" }
    }
}
#endif

#if OpenAPI && AsyncHTTPClient
import Foundation

/// What the test server's `/raw-request` saw: the request as it arrived on the socket.
struct RawRequest: Decodable, Sendable {
    let method: String
    /// The request target as sent: path, percent-encoding and query untouched.
    let target: String
    /// Every header field as `[name, value]`, in the order and case it came.
    let headers: [[String]]
    /// `chunked`, `length` or `none`.
    let framing: String
    let body: String

    /// The fields whose names start with `prefix` (any case), as `name: value` lines.
    func fields(prefixed prefix: String) -> [String] {
        headers.filter { $0[0].lowercased().hasPrefix(prefix.lowercased()) }.map { "\($0[0]): \($0[1])" }
    }

    /// The value of `name` (any case), if it came once or more; the first one.
    func field(_ name: String) -> String? {
        headers.first { $0[0].lowercased() == name.lowercased() }?[1]
    }
}
#endif

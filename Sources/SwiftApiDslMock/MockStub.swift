import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// One route of an `ApiClientMock`: a method (any if `nil`), a path pattern, and how to answer.
struct MockStub: Sendable, CustomStringConvertible {
    let method: HttpMethod?
    let pattern: PathPattern
    let respond: ApiClientMock.StubResponder

    /// The path parameters if the stub answers a request with `method` and path `segments`.
    func match(method: HttpMethod, segments: [String]) -> [String: String]? {
        guard self.method == nil || self.method == method else { return nil }
        return pattern.match(segments)
    }

    /// `GET todos/:id`, or `ANY todos` for a stub of every method.
    var description: String { "\(method?.rawValue ?? "ANY") \(pattern)" }
}

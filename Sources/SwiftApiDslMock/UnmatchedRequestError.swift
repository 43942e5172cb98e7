import Foundation
import SwiftApiDsl

/// The error of a strict `ApiClientMock` (see `ApiClientMock/isStrict`) when no stub
/// matched a request and `ApiClientMock/resultProvider` did not answer it.
///
/// The request fails with `RequestError/transport(_:_:)` carrying this error,
/// whose description names the request and the stubs tried:
/// ```
/// RequestError.transport: DELETE https://h/api/todos/7 failed: no stub of the strict
/// ApiClientMock answers DELETE https://h/api/todos/7 (path "todos/7"), and no resultProvider
/// did; stubs tried, in order: GET todos, GET todos/:id
/// ```
public struct UnmatchedRequestError: Error, Sendable, CustomStringConvertible {
    /// The request's method.
    public let method: HttpMethod
    /// The request's URL.
    public let url: URL
    /// The request's path relative to the base URL, as stubs match it.
    public let path: String
    /// The stubs tried, in order, as `METHOD pattern` (`ANY pattern` for a stub of every method).
    public let triedStubs: [String]

    init(request: RecordedRequest, triedStubs: [String]) {
        self.method = request.method
        self.url = request.url
        self.path = request.path
        self.triedStubs = triedStubs
    }

    /// The request, and the stubs that were tried in order (or that none are set).
    public var description: String {
        let tried = triedStubs.isEmpty ? "no stubs are set" : "stubs tried, in order: " + triedStubs.joined(separator: ", ")
        return "no stub of the strict ApiClientMock answers \(method) \(Redaction.url(url)) (path \"\(path)\"), "
            + "and no resultProvider did; \(tried)"
    }
}

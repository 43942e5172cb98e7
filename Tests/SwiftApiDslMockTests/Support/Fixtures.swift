import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// Values shared by the mock's tests.
enum Fixtures {
    /// A base URL with a path, so that tests see it kept.
    static let baseUrl = URL(string: "https://example.com/api")!
    /// A loopback port nothing listens on: a real request there is refused.
    static let closedPortUrl = URL(string: "http://127.0.0.1:1/api")!
    /// The todo that the tests' server "stores".
    static let todo = Todo(id: 7, title: "Buy milk", isDone: false, createdAt: Date(timeIntervalSince1970: 1_700_000_000))
    /// `todo` as the API sends it.
    static let todoJson = #"{"created_at":"2023-11-14T22:13:20Z","id":7,"is_done":false,"title":"Buy milk"}"#

    /// A fresh empty folder, removed by the caller.
    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("SwiftApiDslMockTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// An HTTP response to `url`.
    static func httpResponse(_ url: URL, statusCode: Int, headers: [String: String] = [:]) -> HTTPURLResponse {
        HTTPURLResponse(url: url, statusCode: statusCode, httpVersion: nil, headerFields: headers)!
    }
}

/// An error with an identity, to check that the very error given is the one received.
struct Marker: Error, Equatable, Sendable {
    let id: Int
}

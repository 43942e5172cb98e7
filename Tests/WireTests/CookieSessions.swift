import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// One URLSession cookie storage that users sign in to in turn (`sid=<user>` for the test
/// server), for the tests of a cache that must keep each session's private answers apart.
struct CookieSessions {
    /// A configuration with this storage, for a `URLSessionTransport`.
    let configuration = URLSessionConfiguration.ephemeral
    /// The test server.
    let base: URL
    private let storage = HTTPCookieStorage.sharedCookieStorage(forGroupContainerIdentifier: UUID().uuidString)

    init() throws {
        base = try TestServer.url("")
        configuration.httpCookieStorage = storage
    }

    /// `load` as ada, then bob, then ada again: the three answers, whose `requests` counts
    /// the test server's answers to that path so far.
    func adaBobAda(_ load: () async throws -> Response<CacheWireTests.Answer>) async throws -> [Response<CacheWireTests.Answer>] {
        var answers: [Response<CacheWireTests.Answer>] = []
        for user in ["ada", "bob", "ada"] {
            storage.setCookie(try #require(HTTPCookie(properties: [.name: "sid", .value: user, .domain: base.host ?? "", .path: "/"])))
            answers.append(try await load())
        }
        return answers
    }
}

#if WIRE_SUITES
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// Paths and query items, checked against httpbin's echo of the URL it received.
/// (httpbin decodes the path and re-quotes it, so its echo shows what the server understood.)
@Suite struct PathAndQueryWireTests {
    @Test(arguments: ["/anything/api/v1", "/anything/api/v1/"], ["users/7", "/users/7"])
    func pathKeepsBasePath(base: String, path: String) async throws {
        let echo: Echo = try await HttpBin.client(base).get(path).perform()
        #expect(echo.url == (try HttpBin.url("/anything/api/v1/users/7").absoluteString))
    }

    @Test func trailingSlashIsKept() async throws {
        let echo: Echo = try await HttpBin.client("/anything").get("candidate/").perform()
        #expect(echo.url == (try HttpBin.url("/anything/candidate/").absoluteString))
    }

    @Test func noPathRequestsTheBaseUrlItself() async throws {
        let echo: Echo = try await HttpBin.client("/anything/exact?key=1").get().perform()
        #expect(echo.url == (try HttpBin.url("/anything/exact?key=1").absoluteString))
    }

    @Test func baseQueryIsKeptAndQueryItemsAreAppended() async throws {
        let echo: Echo = try await HttpBin.client("/anything/api?key=abc")
            .get("users")
            .queryItem(name: "context", "new-user")
            .queryItems(["user": "48", "flow": "signUp"])
            .queryItems([URLQueryItem(name: "id", value: "1"), URLQueryItem(name: "id", value: "2")])
            .perform()
        #expect(echo.url == (try HttpBin.url("/anything/api/users?key=abc&context=new-user&flow=signUp&user=48&id=1&id=2").absoluteString))
        #expect(echo.args == ["key": "abc", "context": "new-user", "flow": "signUp", "user": "48", "id": .many(["1", "2"])])
    }

    @Test func pathCharactersArePercentEncoded() async throws {
        let echo: Echo = try await HttpBin.client("/anything").get("a b+c&d=e#f?g/été/100%").perform()
        // The server saw one path (no query, no fragment) with every character as written
        // (httpbin shows the `%25` it received decoded, as `%`).
        #expect(echo.url == (try HttpBin.url("").absoluteString) + "/anything/a%20b+c&d=e%23f%3Fg/été/100%")
        #expect(echo.args.isEmpty)
    }

    @Test func queryValuesArePercentEncoded() async throws {
        let tricky = "a b+c&d=e#f?g/été"
        let echo: Echo = try await HttpBin.client("/anything").get("search")
            .queryItem(name: "q&=+", tricky)
            .queryItem(name: "flag", nil)
            .perform()
        #expect(echo.args == ["q&=+": .one(tricky), "flag": ""])
    }

    @Test func pathWithControlCharacterFailsAsModifyWithoutCrashing() async throws {
        let client = try HttpBin.client("/anything")
        let error = await #expect(throws: RequestError.self) { try await client.get("users\n7").perform() }
        guard case .modify(_, let source) = error else {
            Issue.record("expected .modify, got \(String(describing: error))")
            return
        }
        #expect(String(describing: source) == #"the path "users\n7" contains the control character U+000A"#)
        #expect(error?.localizedDescription.contains("could not be built") == true)
    }

    @Test func baseUrlWithoutHostFailsAsModify() async throws {
        let client = ApiClient(transport: WireTransport.shared, baseUrl: try #require(URL(string: "localhost:8080")))
        let error = await #expect(throws: RequestError.self) { try await client.get("users").perform() }
        guard case .modify(_, let source) = error else {
            Issue.record("expected .modify, got \(String(describing: error))")
            return
        }
        #expect(String(describing: source) == "the base URL localhost:8080 has no scheme and host")
    }
}
#endif

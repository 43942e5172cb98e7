#if WIRE_SUITES
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// Absolute URLs over a real socket: the client's authentication reaches its own origin only.
@Suite struct AbsoluteUrlWireTests {
    private func client() throws -> ApiClient {
        try HttpBin.client("/anything/api").userAgent("wire-tests").authentication(.bearer("secret"))
    }

    @Test func absoluteUrlOnTheBaseOriginIsAuthenticated() async throws {
        let url = try HttpBin.url("/anything/next?page=2")
        let echo: Echo = try await client().request(url: url).perform()
        #expect(echo.url == url.absoluteString)
        #expect(echo.header("Authorization") == "Bearer secret")
        #expect(echo.header("User-Agent") == "wire-tests")
    }

    @Test func absoluteUrlOnAnotherHostGetsNoAuthorization() async throws {
        let url = try HttpBin.otherHostURL("/anything/elsewhere")
        let echo: Echo = try await client().request(url: url).perform()
        #expect(echo.url == url.absoluteString)
        #expect(echo.header("Authorization") == nil)
        #expect(echo.header("User-Agent") == "wire-tests")
    }

    @Test func anotherHostIsAuthenticatedWhenTheCallerOptsIn() async throws {
        let url = try HttpBin.otherHostURL("/anything/trusted")
        let echo: Echo = try await client().request(url: url).authenticatingAnyOrigin().perform()
        #expect(echo.header("Authorization") == "Bearer secret")
    }

    @Test func rebasedClientAuthenticatesItsNewBase() async throws {
        let rebased = try client().baseUrl(try HttpBin.otherHostURL("/anything/v2"))
        let echo: Echo = try await rebased.get("users").perform()
        #expect(echo.url == (try HttpBin.otherHostURL("/anything/v2/users")).absoluteString)
        #expect(echo.header("Authorization") == "Bearer secret")
    }
}
#endif

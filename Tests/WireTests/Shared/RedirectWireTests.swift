#if WIRE_SUITES
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// Redirects are followed by the library itself, correctly on Linux too.
@Suite struct RedirectWireTests {
    /// `/redirect-to` answering `status` with `Location: location`.
    static func redirect(to location: String, status: Int) -> RequestModifier {
        .queryItems([URLQueryItem(name: "url", value: location), URLQueryItem(name: "status_code", value: String(status))])
    }

    @Test func relativeLocationKeepsTrailingSlashAndQuery() async throws {
        // URLSession on Linux fetches this as /anything/books?ids=1 (it drops the slash).
        let echo: Echo = try await HttpBin.client().get("redirect-to").modifier(Self.redirect(to: "/anything/books/?ids=1", status: 301)).perform()
        #expect(echo.url == (try HttpBin.url("/anything/books/?ids=1").absoluteString))
        #expect(echo.args == ["ids": "1"])
    }

    @Test func pathRelativeLocationResolvesAgainstTheRequest() async throws {
        let echo: Echo = try await HttpBin.client().get("redirect-to").modifier(Self.redirect(to: "anything/shelf/", status: 302)).perform()
        #expect(echo.url == (try HttpBin.url("/anything/shelf/").absoluteString))
    }

    @Test func relativeRedirectChainIsFollowed() async throws {
        let response: Response<Echo> = try await HttpBin.client().get("relative-redirect/3").perform()
        #expect(response.httpResponse.statusCode == 200)
        #expect(response.body.url == (try HttpBin.url("/get").absoluteString))
    }

    @Test(arguments: [301, 302, 303])
    func postBecomesGetWithoutBody(status: Int) async throws {
        let echo: Echo = try await HttpBin.client().post("redirect-to", body: ["name": "Ada"])
            .modifier(Self.redirect(to: "/anything/after", status: status))
            .perform()
        #expect(echo.method == "GET")
        #expect(echo.data == "")
        #expect(echo.header("Content-Type") == nil)
    }

    @Test func seeOtherTurnsPutIntoGet() async throws {
        let echo: Echo = try await HttpBin.client().put("redirect-to", body: ["name": "Ada"]).modifier(Self.redirect(to: "/anything", status: 303)).perform()
        #expect(echo.method == "GET")
    }

    @Test func movedPermanentlyKeepsPut() async throws {
        let echo: Echo = try await HttpBin.client().put("redirect-to", body: ["name": "Ada"]).modifier(Self.redirect(to: "/anything", status: 301)).perform()
        #expect(echo.method == "PUT")
        #expect(echo.json == .object(["name": .string("Ada")]))
    }

    @Test(arguments: [307, 308])
    func temporaryAndPermanentRedirectsKeepMethodAndBody(status: Int) async throws {
        // URLSession on Linux keeps the method but sends an empty body.
        let echo: Echo = try await HttpBin.client().post("redirect-to", body: ["name": "Ada"])
            .modifier(Self.redirect(to: "/anything/kept", status: status))
            .perform()
        #expect(echo.method == "POST")
        #expect(echo.json == .object(["name": .string("Ada")]))
        #expect(echo.header("Content-Type") == "application/json")
    }

    @Test func streamedBodyIsSentAgainOn307() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("body.txt")
        try Data("streamed twice".utf8).write(to: file)
        let echo: Echo = try await HttpBin.client().put("redirect-to")
            .modifier(Self.redirect(to: "/anything/put", status: 307))
            .uploadFile(file, contentType: "text/plain")
            .perform()
        #expect(echo.method == "PUT")
        #expect(echo.data == "streamed twice")
    }

    @Test func authorizationIsDroppedOnAnotherHostAndKeptOnTheSame() async throws {
        let client = try HttpBin.client().bearer("secret").header(.cookie, "a=b")
        let other = try HttpBin.otherHostURL("/anything/elsewhere").absoluteString
        let elsewhere: Echo = try await client.get("redirect-to").modifier(Self.redirect(to: other, status: 302)).perform()
        #expect(elsewhere.url == other)
        #expect(elsewhere.header("Authorization") == nil)
        #expect(elsewhere.header("Cookie") == nil)
        let same: Echo = try await client.get("redirect-to").modifier(Self.redirect(to: "/anything/here", status: 302)).perform()
        #expect(same.header("Authorization") == "Bearer secret")
        #expect(same.header("Cookie") == "a=b")
    }

    /// Every header whose name the library treats as a secret (`X-Api-Key` here, applied by
    /// authentication) stays behind on a hop to another origin; other headers go along.
    @Test func everySecretNamedHeaderIsDroppedOnAnotherOrigin() async throws {
        let client = try HttpBin.client()
            .authentication { .header("X-Api-Key", "k-123") }
            .header("X-Session-Id", "s-9")
            .header("X-Trace", "t-1")
        let other = try HttpBin.otherHostURL("/anything/elsewhere").absoluteString
        let elsewhere: Echo = try await client.get("redirect-to").modifier(Self.redirect(to: other, status: 302)).perform()
        #expect(elsewhere.url == other)
        #expect(elsewhere.header("X-Api-Key") == nil)
        #expect(elsewhere.header("X-Session-Id") == nil)
        #expect(elsewhere.header("X-Trace") == "t-1")
        let same: Echo = try await client.get("redirect-to").modifier(Self.redirect(to: "/anything/here", status: 307)).perform()
        #expect(same.header("X-Api-Key") == "k-123")
        #expect(same.header("X-Session-Id") == "s-9")
    }

    @Test func doNotFollowReturnsTheRedirectToTheValidators() async throws {
        let seen = Trail()
        let response = try await HttpBin.client()
            .redirectPolicy(.doNotFollow)
            .validator { seen.add("\($0.httpResponse.statusCode)") }
            .get("redirect-to").modifier(Self.redirect(to: "/get", status: 302))
            .perform()
        #expect(response.httpResponse.statusCode == 302)
        #expect(response.httpResponse.value(forHTTPHeaderField: "Location") == "/get")
        #expect(seen.all == ["302"])
        let rejected = await #expect(throws: RequestError.self) {
            try await HttpBin.client().httpStatusCodeRange().get("redirect/1").redirectPolicy(.doNotFollow).perform()
        }
        #expect(rejected?.httpResponse?.statusCode == 302)
    }

    /// A user's modifier reaches the call's settings through the same public initialiser as the
    /// built-in `redirectPolicy`, and acts the same.
    @Test func aUsersDraftModifierSetsTheRedirectPolicyAsTheBuiltInDoes() async throws {
        let keepRedirects = RequestModifier(editingDraft: { draft in
            if draft.request.url?.path.hasSuffix("redirect-to") == true { draft.redirectPolicy = .doNotFollow }
        })
        let kept = try await HttpBin.client().modifier(keepRedirects)
            .get("redirect-to").modifier(Self.redirect(to: "/get", status: 302)).perform()
        #expect(kept.httpResponse.statusCode == 302)
        let followed = try await HttpBin.client().modifier(keepRedirects).get("redirect/1").perform()
        #expect(followed.httpResponse.statusCode == 200)
        #expect(followed.httpResponse.url?.path == "/get")
    }

    @Test func tooManyRedirectsFailsAsTransport() async throws {
        let error = await #expect(throws: RequestError.self) {
            try await HttpBin.client().get("redirect/3").redirectPolicy(.follow(max: 2)).perform()
        }
        guard case .transport(let request, let source) = error else {
            Issue.record("expected .transport, got \(String(describing: error))")
            return
        }
        #expect((source as? URLError)?.code == .httpTooManyRedirects)
        #expect(request.url == (try HttpBin.url("/relative-redirect/1")))
        let response = try await HttpBin.client().get("redirect/3").redirectPolicy(.follow(max: 3)).perform()
        #expect(response.httpResponse.statusCode == 200)
    }

    @Test func customPolicyDecidesAndRewritesEachHop() async throws {
        let hops = Trail()
        let echo: Echo = try await HttpBin.client()
            .redirectPolicy(.custom { redirect in
                hops.add("\(redirect.count) \(redirect.response.statusCode) \(redirect.proposedRequest.url?.path ?? "")")
                var next = redirect.proposedRequest
                next.setValue("rewritten", forHTTPHeaderField: "X-Hop")
                return next
            })
            .get("relative-redirect/2")
            .perform()
        #expect(hops.all == ["1 302 /relative-redirect/1", "2 302 /get"])
        #expect(echo.header("X-Hop") == "rewritten")
        let stopped = try await HttpBin.client().get("relative-redirect/2").redirectPolicy(.custom { _ in nil }).perform()
        #expect(stopped.httpResponse.statusCode == 302)
        let failing = await #expect(throws: RequestError.self) {
            try await HttpBin.client().get("relative-redirect/2").redirectPolicy(.custom { _ in throw Boom(label: "policy") }).perform()
        }
        #expect(failing?.stage == "transport")
        #expect(failing?.underlyingError as? Boom == Boom(label: "policy"))
    }

    @Test func downloadFollowsRedirects() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("final")
        try await HttpBin.client().get("redirect-to").modifier(Self.redirect(to: "/base64/ZmluYWw=", status: 302)).download(destination: destination)
        #expect(try String(contentsOf: destination, encoding: .utf8) == "final")
    }
}
#endif

#if WIRE_SUITES
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl
import SwiftApiDslCache

/// Every built-in modifier, both as `RequestModifier.x` and as a chained `.x`, over the wire.
@Suite struct ModifierWireTests {
    @Test func headerModifiersSetTheirFields() async throws {
        let echo: Echo = try await HttpBin.client("/anything")
            .header("X-One", "1")
            .header(.acceptLanguage, "fr-FR")
            .accept("application/json")
            .userAgent("my-app/5.0.1")
            .get("x")
            .contentType("text/plain")
            .modifier(.header("X-Two", "2"))
            .modifier(.header(HeaderField("X-Three"), "3"))
            .perform()
        #expect(echo.header("X-One") == "1")
        #expect(echo.header("X-Two") == "2")
        #expect(echo.header("X-Three") == "3")
        #expect(echo.header("Accept-Language") == "fr-FR")
        #expect(echo.header("Accept") == "application/json")
        #expect(echo.header("User-Agent") == "my-app/5.0.1")
        #expect(echo.header("Content-Type") == "text/plain")
    }

    @Test func nilRemovesAHeader() async throws {
        let echo: Echo = try await HttpBin.client("/anything")
            .header("X-Gone", "here")
            .accept("text/html")
            .get("x")
            .header("X-Gone", nil)
            .modifier(.accept(nil))
            .perform()
        #expect(echo.header("X-Gone") == nil)
        #expect(echo.header("Accept") != "text/html")
    }

    @Test func authorizationForms() async throws {
        let client = try HttpBin.client("/anything")
        let raw: Echo = try await client.get("x").authorization("Custom abc").perform()
        let scheme: Echo = try await client.get("x").authorization("Token", "k3y").perform()
        let bearer: Echo = try await client.get("x").modifier(.bearer("t0k")).perform()
        #expect(raw.header("Authorization") == "Custom abc")
        #expect(scheme.header("Authorization") == "Token k3y")
        #expect(bearer.header("Authorization") == "Bearer t0k")
    }

    @Test func basicAuthenticationIsAcceptedByTheServer() async throws {
        struct Authenticated: Decodable, Equatable { let authenticated: Bool; let user: String }
        let result: Authenticated = try await HttpBin.client()
            .httpStatusCodeRange()
            .authentication(.basic(userId: "zoé", password: "p:ss"))
            .get("basic-auth/zoé/p:ss")
            .perform()
        #expect(result == Authenticated(authenticated: true, user: "zoé"))
        let echo: Echo = try await HttpBin.client("/anything").get("x").basic(userId: "user", password: "pass").perform()
        #expect(echo.header("Authorization") == "Basic dXNlcjpwYXNz")
    }

    @Test func jsonBodySetsContentTypeAndUsesTheEncoder() async throws {
        let snake = JSONEncoder()
        snake.keyEncodingStrategy = .convertToSnakeCase
        let echo: Echo = try await HttpBin.client("/anything")
            .post("x")
            .jsonBody(Profile(firstName: "Ada", age: 36), jsonEncoder: snake)
            .perform()
        #expect(echo.header("Content-Type") == "application/json")
        #expect(echo.json == .object(["first_name": .string("Ada"), "age": .number(36)]))
        let plain: Echo = try await HttpBin.client("/anything").post("x").modifier(.jsonBody(["a": 1])).perform()
        #expect(plain.json == .object(["a": .number(1)]))
    }

    @Test func formUrlEncodedBody() async throws {
        let echo: Echo = try await HttpBin.client("/anything")
            .post("x")
            .formUrlEncoded(["name": "Zoé Dupont", "math": "1+1=2 & more"])
            .perform()
        #expect(echo.header("Content-Type") == "application/x-www-form-urlencoded")
        #expect(echo.form == ["name": "Zoé Dupont", "math": "1+1=2 & more"])
        let ordered: Echo = try await HttpBin.client("/anything")
            .post("x")
            .modifier(.formUrlEncoded([URLQueryItem(name: "z", value: "1"), URLQueryItem(name: "a", value: "2")]))
            .perform()
        #expect(ordered.form == ["z": "1", "a": "2"])
    }

    @Test func rawBodyKeepsAnExplicitContentType() async throws {
        let defaulted: Echo = try await HttpBin.client("/anything").post("x").body(Data("raw".utf8)).perform()
        #expect(defaulted.data == "raw")
        #expect(defaulted.header("Content-Type") == "application/octet-stream")
        let explicit: Echo = try await HttpBin.client("/anything")
            .post("x")
            .contentType("text/csv")
            .modifier(.body(Data("a,b".utf8)))
            .perform()
        #expect(explicit.data == "a,b")
        #expect(explicit.header("Content-Type") == "text/csv")
    }

    @Test func uploadFileStreamsTheFileWithContentLength() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("upload.txt")
        let text = String(repeating: "0123456789", count: 50_000)
        try Data(text.utf8).write(to: file)
        let echo: Echo = try await HttpBin.client("/anything").put("x").uploadFile(file, contentType: "text/plain").perform()
        #expect(echo.data == text)
        #expect(echo.header("Content-Length") == "500000")
        #expect(echo.header("Transfer-Encoding") == nil)
        #expect(echo.header("Content-Type") == "text/plain")
    }

    @Test func uploadOfAMissingFileFailsAsModify() async throws {
        let missing = URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString)")
        let error = await #expect(throws: RequestError.self) {
            try await HttpBin.client("/anything").put("x").uploadFile(missing).perform()
        }
        #expect(error?.stage == "modify")
    }

    @Test func requestPropertiesAreAcceptedOnEveryPlatform() async throws {
        // allowsCellularAccess has no effect on Linux; the request still goes through.
        let response = try await HttpBin.client("/anything")
            .allowsCellularAccess(false)
            .timeoutInterval(8)
            .get("x")
            .modifier(.allowsCellularAccess(true))
            .modifier(.timeoutInterval(9))
            .perform()
        #expect(response.httpResponse.statusCode == 200)
    }

    @Test func customMethodAndEveryStarter() async throws {
        let client = try HttpBin.client("/anything")
        // httpbin's /anything answers 405 to unknown methods, so the custom method here is TRACE.
        let custom: Echo = try await client.request(HttpMethod("TRACE"), "cache").perform()
        #expect(custom.method == "TRACE")
        for (builder, method) in [(client.get("m"), "GET"), (client.post("m"), "POST"), (client.put("m"), "PUT"),
                                  (client.patch("m"), "PATCH"), (client.delete("m"), "DELETE")] {
            let echo: Echo = try await builder.perform()
            #expect(echo.method == method)
        }
        let head = try await client.head("m").perform()
        #expect(head.httpResponse.statusCode == 200)
        #expect(head.body.isEmpty)
        // httpbin answers OPTIONS itself, listing the methods it allows.
        let options = try await client.options("m").perform()
        #expect(options.httpResponse.value(forHTTPHeaderField: "Allow")?.contains("PATCH") == true)
    }

    @Test func aModifierThatEditsTheLibrarysOwnFormIsSentAndChecked() async throws {
        let traceId = RequestModifier(editing: { $0.headerFields.set("t-42", for: "X-Trace-Id") })
        let echo = try await HttpBin.client().get("anything").modifier(traceId).perform(as: Echo.self)
        #expect(echo.header("X-Trace-Id") == "t-42")
        // A value HTTP cannot carry is refused, not dropped, though no URLRequest is made for it.
        let injected = RequestModifier(editing: { $0.headerFields.set("a\r\nX-Injected: 1", for: "X-Note") })
        let error = await #expect(throws: RequestError.self) { try await HttpBin.client().get("anything").modifier(injected).perform() }
        guard case .modify(_, let cause)? = error else { Issue.record("expected .modify, got \(String(describing: error))"); return }
        #expect((cause as? ApiClientError)?.code == .invalidHeader)
        #expect((cause as? ApiClientError)?.message == "the value of the header X-Note contains a control character")
    }

    @Test func aBodySetInTheLibrarysOwnFormReplacesAnyOther() async throws {
        let body = RequestModifier(editing: { $0.setBody(Data("plain".utf8)) })
        let echo = try await HttpBin.client().post("anything", body: ["json": true]).modifier(body).perform(as: Echo.self)
        #expect(echo.data == "plain")
    }
}
#endif

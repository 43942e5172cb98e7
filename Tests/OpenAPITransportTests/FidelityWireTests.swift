#if OpenAPI && AsyncHTTPClient
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl
import SwiftApiDslOpenAPI

/// The request target and header fields the generated code wrote, as the server received them,
/// over both engines.
@Suite struct FidelityWireTests {
    func api(_ engine: Engine) throws -> TodosAPI {
        let server = try Servers.testServer()
        return TodosAPI(serverURL: server, transport: ApiClientTransport(engine.client(server)))
    }

    func raw(_ request: HTTPRequest, body: HTTPBody? = nil, on engine: Engine) async throws -> RawRequest {
        let (response, text) = try await api(engine).raw(request, body: body)
        #expect(response.status == .ok)
        return try JSONDecoder().decode(RawRequest.self, from: Data(text.utf8))
    }

    @Test(arguments: Engine.allCases)
    func theRequestTargetArrivesAsWritten(engine: Engine) async throws {
        let target = "/raw-request/a%2Fb/%E2%9C%93/x%20y?q=a+b&r=%20&s=%2B&empty=&flag&q=2"
        let seen = try await raw(HTTPRequest(method: .get, scheme: nil, authority: nil, path: target), on: engine)
        #expect(seen.target == target)
        #expect(seen.method == "GET")
    }

    /// Names keep their case on both engines; the order is kept by AsyncHTTPClient (URLSession
    /// keeps the fields in a dictionary).
    @Test(arguments: Engine.allCases)
    func headerFieldsArriveInTheirOrderAndCase(engine: Engine) async throws {
        var fields = HTTPFields()
        fields.append(HTTPField(name: HTTPField.Name("X-Zulu")!, value: "z"))
        fields.append(HTTPField(name: HTTPField.Name("x-alpha")!, value: "a"))
        fields.append(HTTPField(name: HTTPField.Name("X-Mixed-Case")!, value: "m"))
        let seen = try await raw(HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/raw-request", headerFields: fields), on: engine)
        let expected = ["X-Zulu: z", "x-alpha: a", "X-Mixed-Case: m"]
        switch engine {
        case .asyncHTTPClient: #expect(seen.fields(prefixed: "x-") == expected)
        case .urlSession: #expect(seen.fields(prefixed: "x-").sorted() == expected.sorted())
        }
    }

    /// AsyncHTTPClient sends a repeated field as written, in order; URLSession holds one value per
    /// name in a dictionary: it sends the values joined with `, ` (RFC 9110, section 5.3), in
    /// their order, and the fields in an order of its own.
    @Test(arguments: Engine.allCases)
    func aRepeatedFieldArrivesRepeatedOrJoined(engine: Engine) async throws {
        var fields = HTTPFields()
        fields.append(HTTPField(name: HTTPField.Name("X-Tag")!, value: "one"))
        fields.append(HTTPField(name: HTTPField.Name("X-Other")!, value: "o"))
        fields.append(HTTPField(name: HTTPField.Name("X-Tag")!, value: "two"))
        let seen = try await raw(HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/raw-request", headerFields: fields), on: engine)
        switch engine {
        case .asyncHTTPClient: #expect(seen.fields(prefixed: "x-") == ["X-Tag: one", "X-Other: o", "X-Tag: two"])
        case .urlSession: #expect(seen.fields(prefixed: "x-").sorted() == ["X-Other: o", "X-Tag: one, two"])
        }
    }

    @Test(arguments: Engine.allCases)
    func theGeneratedFieldsReplaceTheClientsOfTheSameName(engine: Engine) async throws {
        let server = try Servers.testServer()
        let client = engine.client(server).header("Accept", "text/plain").header("X-App", "todos")
        let api = TodosAPI(serverURL: server, transport: ApiClientTransport(client))
        let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/raw-request", headerFields: [.accept: "application/json"])
        let (_, text) = try await api.raw(request)
        let seen = try JSONDecoder().decode(RawRequest.self, from: Data(text.utf8))
        #expect(seen.headers.filter { $0[0].lowercased() == "accept" }.map { $0[1] } == ["application/json"])
        #expect(seen.field("X-App") == "todos")
    }
}
#endif

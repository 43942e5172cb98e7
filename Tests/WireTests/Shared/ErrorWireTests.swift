#if WIRE_SUITES
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// Each `RequestError` case, produced for real, with its description.
@Suite struct ErrorWireTests {
    @Test func throwingModifierFailsAsModifyWithTheRequestSoFar() async throws {
        let error = await #expect(throws: RequestError.self) {
            try await HttpBin.client("/anything").get("x").header("X-Before", "1").modifier { _ in throw Boom(label: "modifier") }.perform()
        }
        guard case .modify(let request, let source) = error else {
            Issue.record("expected .modify, got \(String(describing: error))")
            return
        }
        #expect(source as? Boom == Boom(label: "modifier"))
        #expect(request.value(forHTTPHeaderField: "X-Before") == "1")
        #expect(request.url == (try HttpBin.url("/anything/x")))
    }

    @Test func throwingAuthenticationFailsAsModifyButBypassAuthSucceeds() async throws {
        let client = try HttpBin.client("/anything").authentication { () async throws -> RequestModifier in throw Boom(label: "token") }
        let error = await #expect(throws: RequestError.self) { try await client.get("x").perform() }
        #expect(error?.stage == "modify")
        #expect(error?.underlyingError as? Boom == Boom(label: "token"))
        let response = try await client.get("x", bypassAuth: true).perform()
        #expect(response.httpResponse.statusCode == 200)
    }

    @Test func refusedConnectionFailsAsTransport() async throws {
        let client = ApiClient(transport: WireTransport.shared, baseUrl: try HttpBin.closedPortURL())
        let error = await #expect(throws: RequestError.self) { try await client.get("x").perform() }
        guard case .transport(let request, _) = error else {
            Issue.record("expected .transport, got \(String(describing: error))")
            return
        }
        #expect(request.httpMethod == "GET")
        #expect(error?.isCancellation == false)
    }

    @Test func status404FailsAsValidateKeepingDataAndResponse() async throws {
        let client = try HttpBin.client().httpStatusCodeRange()
        let error = await #expect(throws: RequestError.self) { try await client.get("status/404").perform() }
        guard case .validate(let request, let data, let response, let source) = error else {
            Issue.record("expected .validate, got \(String(describing: error))")
            return
        }
        #expect(request.url == (try HttpBin.url("/status/404")))
        #expect(data.isEmpty)
        #expect(response.statusCode == 404)
        #expect(source as? ApiClientError == ApiClientError(.unacceptableStatusCode, message: "status code 404 is outside 200..<300", statusCode: 404, acceptableStatusCodes: 200..<300))
        #expect(error?.localizedDescription == "RequestError.validate: GET \(try HttpBin.url("/status/404").absoluteString) got status 404 (0 bytes) rejected by a validator: status code 404 is outside 200..<300")
    }

    @Test func validateKeepsTheErrorBody() async throws {
        let strict = try HttpBin.client().httpStatusCodeRange(201..<202)
        let rejected = await #expect(throws: RequestError.self) { try await strict.post("anything/x").jsonBody(["id": 1]).perform() }
        guard case .validate(_, let data, _, _) = rejected else {
            Issue.record("expected .validate, got \(String(describing: rejected))")
            return
        }
        let echo = try JSONDecoder().decode(Echo.self, from: data)
        #expect(echo.json == .object(["id": .number(1)]))
    }

    /// A snake_case error document, as `/errors/<status>` on the test server sends it.
    struct ApiError: Decodable, Error, Equatable {
        let errorCode: String
        let errorMessage: String
        let retryAfterSeconds: Int
    }

    @Test func errorBodiesAreDecodedWithTheClientsDecoder() async throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let client = ApiClient(transport: WireTransport.shared, baseUrl: try TestServer.url(), jsonDecoder: decoder)
            .httpStatusCodeRange()
            .decodingErrorBody(ApiError.self)
        let error = await #expect(throws: RequestError.self) { try await client.get("errors/409").perform() }
        #expect(error?.validationError as? ApiError
                == ApiError(errorCode: "status_409", errorMessage: "the server answered 409 on purpose", retryAfterSeconds: 3))
        // A decoder given to the validator wins over the client's.
        let plain = client.decodingErrorBody(ApiError.self, jsonDecoder: JSONDecoder())
        let undecoded = await #expect(throws: RequestError.self) { try await plain.get("errors/409").perform() }
        #expect((undecoded?.validationError as? ApiClientError)?.code == .unacceptableStatusCode)
        #expect(undecoded?.statusCode == 409)
    }

    @Test func decodingFailureIsFatalNamingTheTypeAndKeepingTheResponse() async throws {
        let error = await #expect(throws: RequestError.self) {
            let _: Profile = try await HttpBin.client().get("json").perform()
        }
        guard case .fatal(.decoding(let type, let request, let response, let source)) = error else {
            Issue.record("expected .fatal(.decoding), got \(String(describing: error))")
            return
        }
        #expect(type == "Profile")
        #expect(request.url == (try HttpBin.url("/json")))
        #expect(response.httpResponse.statusCode == 200)
        #expect(response.body.count > 0)
        #expect(source is DecodingError)
        #expect(error?.localizedDescription.contains("do not decode as Profile: key 'firstName' not found") == true)
    }

    @Test func descriptionNamesStageMethodUrlAndCause() async throws {
        let error = await #expect(throws: RequestError.self) {
            try await HttpBin.client("/anything").delete("items/3").modifier { _ in throw Boom(label: "why") }.perform()
        }
        let url = try HttpBin.url("/anything/items/3").absoluteString
        #expect(error?.localizedDescription == "RequestError.modify: DELETE \(url) could not be built: Boom(why)")
        #expect(error.map { String(describing: $0) } == "RequestError.modify: DELETE \(url) could not be built: Boom(why)")
    }

    @Test func secretsNeverAppearInAnyDescription() async throws {
        let secrets = ["Bearer s3cr3t-token", "session=c00kie", "Basic pr0xy"]
        let client = try HttpBin.client()
            .bearer("s3cr3t-token")
            .header(.cookie, "session=c00kie")
            .header(.proxyAuthorization, "Basic pr0xy")
            .httpStatusCodeRange()
        var errors: [RequestError] = []
        for request in [client.get("status/401"), client.get("anything").modifier { _ in throw Boom() }] {
            do { try await request.perform() } catch { errors.append(error.asRequestError) }
        }
        let decoding = await #expect(throws: RequestError.self) { let _: Profile = try await client.get("json").perform() }
        errors += decoding.map { [$0] } ?? []
        #expect(errors.count == 3)
        for error in errors {
            var dumped = ""
            dump(error, to: &dumped)
            let texts = [error.localizedDescription, String(describing: error), String(reflecting: error), dumped, "\(error)"]
            for text in texts {
                for secret in secrets { #expect(!text.contains(secret), "\(secret) leaked in \(text)") }
            }
            #expect(dumped.contains("Authorization: <redacted>"))
            #expect(error.request?.value(forHTTPHeaderField: "Authorization") == "Bearer s3cr3t-token")
        }
    }

    @Test func urlPasswordIsRedactedInDescriptions() async throws {
        var components = try #require(URLComponents(url: try HttpBin.url("/anything"), resolvingAgainstBaseURL: false))
        components.user = "me"
        components.password = "hunter2"
        let client = ApiClient(transport: WireTransport.shared, baseUrl: try #require(components.url))
        let error = await #expect(throws: RequestError.self) { try await client.get("x").modifier { _ in throw Boom() }.perform() }
        #expect(error?.localizedDescription.contains("hunter2") == false)
        #expect(error?.localizedDescription.contains("me:%3Credacted%3E@") == true)
    }

    @Test func asRequestErrorWrapsForeignErrors() {
        let wrapped = Boom(label: "foreign").asRequestError
        guard case .fatal(.unexpected(let source)) = wrapped else {
            Issue.record("expected .fatal(.unexpected), got \(wrapped)")
            return
        }
        #expect(source as? Boom == Boom(label: "foreign"))
        #expect(wrapped.request == nil)
        let same = RequestError.transport(URLRequest(url: URL(fileURLWithPath: "/")), Boom()).asRequestError
        #expect(same.stage == "transport")
    }
}

/// Linux URLSession hangs on a 401 that carries `WWW-Authenticate: Basic` until the timeout;
/// the library returns it at once.
@Suite struct UnauthorizedWireTests {
    @Test(arguments: ["status/401", "basic-auth/user/pass", "bearer"])
    func unauthorizedIsReturnedPromptly(path: String) async throws {
        let result = await Result { try await HttpBin.client().httpStatusCodeRange().get(path).timeoutInterval(10).perform() }
        // The hang this pins ends in the idle timeout, a `.transport` error: the 401 as a
        // validation failure is the answer arriving without it, however loaded the machine.
        guard case .failure(let error) = result, case .validate(_, _, let response, _) = error.asRequestError else {
            Issue.record("expected a validate error, got \(result)")
            return
        }
        #expect(response.statusCode == 401)
    }

    @Test func unauthorizedDownloadIsReturnedPromptly() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 10 s, as above: the hang this pins lasts the whole timeout, and a machine loaded with
        // the parallel suites (four busy loops beside them) outlasted 5 s while the answer was due.
        let response = try await HttpBin.client().get("basic-auth/user/pass").timeoutInterval(10).download(destination: folder.appendingPathComponent("x"))
        #expect(response.statusCode == 401)
    }
}
#endif

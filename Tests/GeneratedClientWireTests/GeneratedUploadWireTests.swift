#if OpenAPI && AsyncHTTPClient
import Foundation
import GeneratedUploadClient
import OpenAPIRuntime
import SwiftApiDsl
import SwiftApiDslOpenAPI
import Testing

/// The client swift-openapi-generator wrote from Label Studio's own document uploads a file of
/// tasks (multipart/form-data) to Label Studio on loopback: through `ApiClientTransport` on both
/// engines, and through the plain adapters, in the same run. One upload at a time: Label Studio
/// keeps its state in SQLite.
@Suite(.serialized) struct GeneratedUploadWireTests {
    /// What every transport must get from the upload, exactly.
    static func expectSameAsLabelStudioAnswers(_ outcome: UploadScenario.Outcome) {
        #expect(outcome.title == "Upload by a generated client")
        #expect(outcome.taskCount == 3)
        #expect(outcome.fileUploads == 1)
        #expect(outcome.dataColumns == ["text"])
        #expect(outcome.foundFormats == [".json": 1])
        #expect(outcome.tasks == [#"{"text":"first task"}"#, #"{"text":"naïve café ☕"}"#, #"{"text":"a \"quoted\" line"}"#])
    }

    /// The generated client over `ApiClientTransport` on `engine`, with the token sent by the
    /// client's authentication; the upload goes with its length (see `GatheredBodyMiddleware`).
    static func client(on engine: Engine, gathering: Bool = true) throws -> Client {
        let api = try engine.apiClient(baseUrl: LabelStudio.url()).authentication(.authorization("Token", LabelStudio.token()))
        return Client(
            serverURL: try LabelStudio.url(), configuration: LabelStudio.configuration,
            transport: ApiClientTransport(api), middlewares: gathering ? [GatheredBodyMiddleware()] : []
        )
    }

    /// The generated client over a plain adapter, with the token added by a `ClientMiddleware`;
    /// the upload goes with its length, as above.
    static func client(on adapter: PlainAdapter, gathering: Bool = true) throws -> Client {
        let authorization = AuthorizationMiddleware(value: "Token \(try LabelStudio.token())")
        return Client(
            serverURL: try LabelStudio.url(), configuration: LabelStudio.configuration, transport: adapter.transport,
            middlewares: gathering ? [GatheredBodyMiddleware(), authorization] : [authorization]
        )
    }

    @Test(arguments: Engine.allCases)
    func uploadRunsThroughApiClientTransport(engine: Engine) async throws {
        Self.expectSameAsLabelStudioAnswers(try await UploadScenario(client: Self.client(on: engine)).run())
    }

    @Test(arguments: PlainAdapter.allCases)
    func plainAdaptersGetTheSameAnswers(adapter: PlainAdapter) async throws {
        Self.expectSameAsLabelStudioAnswers(try await UploadScenario(client: Self.client(on: adapter)).run())
    }

    @Test func apiClientTransportAgreesWithThePlainAdaptersInOneRun() async throws {
        var outcomes: [String: UploadScenario.Outcome] = [:]
        for engine in Engine.allCases {
            outcomes["ApiClientTransport over \(engine)"] = try await UploadScenario(client: Self.client(on: engine)).run()
        }
        for adapter in PlainAdapter.allCases {
            outcomes["\(adapter)"] = try await UploadScenario(client: Self.client(on: adapter)).run()
        }
        #expect(outcomes.count == 4)
        let reference = try #require(outcomes["plain asyncHTTPClient"])
        for (name, outcome) in outcomes {
            #expect(outcome == reference, "\(name) differs from the plain AsyncHTTPClient adapter")
        }
    }

    /// Why the upload is gathered: over AsyncHTTPClient a multipart body of unknown length goes
    /// chunked, and Label Studio's development server reads no chunked body, so it answers `400`
    /// (its body, `{"validation_errors": …}`, is not the string its document lists, so the
    /// generated client throws with the response attached). The library and the plain adapter
    /// do the same.
    @Test func aChunkedUploadOverAsyncHTTPClientIsRefusedByLabelStudio() async throws {
        let clients = [
            "ApiClientTransport over asyncHTTPClient": try Self.client(on: Engine.asyncHTTPClient, gathering: false),
            "plain asyncHTTPClient": try Self.client(on: PlainAdapter.asyncHTTPClient, gathering: false),
        ]
        for (name, client) in clients.sorted(by: { $0.key < $1.key }) {
            let error = await #expect(throws: ClientError.self, "\(name)") { try await UploadScenario(client: client).run() }
            #expect(error?.operationID == "api_projects_import_create", "\(name)")
            #expect(error?.response?.status.code == 400, "\(name)")
        }
    }
}
#endif

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
    static func client(on engine: Engine) throws -> Client {
        let api = try engine.apiClient(baseUrl: LabelStudio.url()).authentication(.authorization("Token", LabelStudio.token()))
        return Client(
            serverURL: try LabelStudio.url(), configuration: LabelStudio.configuration,
            transport: ApiClientTransport(api), middlewares: [GatheredBodyMiddleware()]
        )
    }

    /// The generated client over a plain adapter, with the token added by a `ClientMiddleware`;
    /// the upload goes with its length, as above.
    static func client(on adapter: PlainAdapter) throws -> Client {
        Client(
            serverURL: try LabelStudio.url(), configuration: LabelStudio.configuration, transport: adapter.transport,
            middlewares: [GatheredBodyMiddleware(), AuthorizationMiddleware(value: "Token \(try LabelStudio.token())")]
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
}

#if OpenAPI && AsyncHTTPClient
import Foundation
import GeneratedClient
import OpenAPIRuntime
import Testing

/// The client swift-openapi-generator wrote from Airflow's own document, against Airflow on
/// loopback: through `ApiClientTransport` on both engines, and through the plain adapters, in
/// the same run. One scenario at a time: Airflow keeps its state in SQLite, which refuses a
/// second writer while the first one writes (a `500` to a concurrent create).
@Suite(.serialized) struct GeneratedClientWireTests {
    /// What every transport must get from the scenario, exactly.
    static func expectSameAsAirflowAnswers(_ outcome: PoolsAndRunsScenario.Outcome) {
        #expect(outcome.created == ["<p>-a 3 made by a generated client 3", "<p>-b 5 made by a generated client 5"])
        #expect(outcome.listed == ["2", "<p>-b"])
        #expect(outcome.undocumentedStatus == 400)
        #expect(outcome.undocumentedBody == #"{"detail":"Ordering with 'bogus' is disallowed or the attribute does not exist on the model"}"#)
        #expect(outcome.firstLine == #"{"state": "queued"}"#)
        #expect(outcome.lastLine == #"{"state": "success"}"#)
    }

    @Test(arguments: Engine.allCases)
    func operationsRunThroughApiClientTransport(engine: Engine) async throws {
        let outcome = try await PoolsAndRunsScenario(client: try await engine.generatedClient()).run()
        Self.expectSameAsAirflowAnswers(outcome)
        // The library hands the body over as it arrives: the first state line came while the run
        // was still queued, before the test ended it.
        #expect(outcome.firstLineArrivedBeforeTheEnd)
    }

    @Test(arguments: PlainAdapter.allCases)
    func plainAdaptersGetTheSameAnswers(adapter: PlainAdapter) async throws {
        let outcome = try await PoolsAndRunsScenario(client: try await adapter.generatedClient()).run()
        Self.expectSameAsAirflowAnswers(outcome)
    }

    @Test func apiClientTransportAgreesWithThePlainAdaptersInOneRun() async throws {
        var outcomes: [String: PoolsAndRunsScenario.Outcome] = [:]
        for engine in Engine.allCases {
            outcomes["ApiClientTransport over \(engine)"] = try await PoolsAndRunsScenario(client: try await engine.generatedClient()).run()
        }
        for adapter in PlainAdapter.allCases {
            outcomes["\(adapter)"] = try await PoolsAndRunsScenario(client: try await adapter.generatedClient()).run()
        }
        let reference = try #require(outcomes["plain asyncHTTPClient"])
        for (name, outcome) in outcomes {
            var comparable = outcome
            comparable.firstLineArrivedBeforeTheEnd = reference.firstLineArrivedBeforeTheEnd
            #expect(comparable == reference, "\(name) differs from the plain AsyncHTTPClient adapter")
        }
    }
}
#endif

#if OpenAPI && AsyncHTTPClient
import Foundation
import GeneratedClient
import OpenAPIRuntime

/// The operations every transport runs against Airflow, and what they gave, with the pools'
/// unique prefix replaced by `<p>` so that runs on different transports can be compared.
struct PoolsAndRunsScenario {
    /// What one transport got back.
    struct Outcome: Equatable, CustomStringConvertible {
        /// `POST /api/v2/pools` (a JSON body): name, slots, description and open slots of the new pool.
        var created: [String] = []
        /// `GET /api/v2/pools?limit=1&order_by=-name&pool_name_pattern=<p>`: total, then the names listed.
        var listed: [String] = []
        /// `GET /api/v2/pools?order_by=bogus`: the status Airflow's document does not list, and its body.
        var undocumentedStatus = 0
        var undocumentedBody = ""
        /// `GET …/dagRuns/{run}/wait`: the first and the last NDJSON line of the stream.
        var firstLine = ""
        var lastLine = ""
        /// Whether the first line arrived while the run was still going (before the test ended it).
        var firstLineArrivedBeforeTheEnd = false

        var description: String {
            "created \(created), listed \(listed), undocumented \(undocumentedStatus) \(undocumentedBody), stream \(firstLine) … \(lastLine) (early: \(firstLineArrivedBeforeTheEnd))"
        }
    }

    struct Unexpected: Error, CustomStringConvertible {
        let description: String
    }

    let client: Client
    let prefix = Airflow.uniqueName("wire")

    /// Runs the operations, then deletes the pools it made (awaited: SQLite takes one writer at a time).
    func run() async throws -> Outcome {
        do {
            let outcome = try await runOperations()
            await Self.removePools(client: client, prefix: prefix)
            return outcome
        } catch {
            await Self.removePools(client: client, prefix: prefix)
            throw error
        }
    }

    private func runOperations() async throws -> Outcome {
        var outcome = Outcome()

        for (suffix, slots) in [("a", 3), ("b", 5)] {
            let body = Components.Schemas.PoolBody(name: "\(prefix)-\(suffix)", slots: slots, description: "made by a generated client")
            let created = try await client.postPool(body: .json(body)).created.body.json
            outcome.created.append("\(hide(created.name)) \(created.slots) \(created.description ?? "nil") \(created.openSlots)")
        }

        let page = try await client.getPools(query: .init(limit: 1, orderBy: ["-name"], poolNamePattern: prefix)).ok.body.json
        outcome.listed = ["\(page.totalEntries)"] + page.pools.map { hide($0.name) }

        switch try await client.getPools(query: .init(orderBy: ["bogus"])) {
        case .undocumented(let status, let payload):
            outcome.undocumentedStatus = status
            outcome.undocumentedBody = try await String(collecting: payload.body ?? HTTPBody(), upTo: 1 << 16)
        case let other:
            throw Unexpected(description: "expected an undocumented status, got \(other)")
        }

        try await streamOneRun(into: &outcome)
        return outcome
    }

    /// Triggers a run of the `wire_test` Dag, reads the state stream of `wait`, and ends the run
    /// once the first line is in (or after 5 s if it never comes before the end, as with a
    /// transport that gathers the body first): the stream's last line is then `success`.
    private func streamOneRun(into outcome: inout Outcome) async throws {
        // A run ID with characters the path must percent-encode, and a logical date of its own
        // (Airflow refuses two runs of a Dag with the same one).
        let runID = "manual__\(prefix)+run:1"
        let logicalDate = Date(timeIntervalSince1970: 1_000_000_000 + Double.random(in: 0..<600_000_000).rounded())
        let run = try await client.triggerDagRun(path: .init(dagId: "wire_test"),
                                                 body: .json(.init(dagRunId: runID, logicalDate: logicalDate))).ok.body.json
        guard run.dagRunId == runID, run.state == .queued else {
            throw Unexpected(description: "triggered \(run.dagRunId) in state \(run.state)")
        }
        let end = EndOnce()
        let endRun = { @Sendable [client] in
            _ = try await client.patchDagRun(path: .init(dagId: "wire_test", dagRunId: run.dagRunId), body: .json(.init(state: .success))).ok
        }
        let ender = Task {
            try await Task.sleep(for: .seconds(5))
            if await end.claim() { try await endRun() }
        }
        defer { ender.cancel() }
        let stream = try await client.waitDagRunUntilFinished(path: .init(dagId: "wire_test", dagRunId: run.dagRunId), query: .init(interval: 0.2))
            .ok.body.applicationXNdjson
        var lines: [String] = []
        for try await line in stream.splitIntoLines() {
            lines.append(line)
            if lines.count == 1, await end.claim() {
                outcome.firstLineArrivedBeforeTheEnd = true
                try await endRun()
            }
        }
        outcome.firstLine = lines.first ?? ""
        outcome.lastLine = lines.last ?? ""
    }

    private func hide(_ name: String) -> String { name.replacingOccurrences(of: prefix, with: "<p>") }

    private static func removePools(client: Client, prefix: String) async {
        for suffix in ["a", "b"] { _ = try? await client.deletePool(path: .init(poolName: "\(prefix)-\(suffix)")) }
    }
}

/// Who ends the run: the first to claim it.
actor EndOnce {
    private var claimed = false
    /// `true` for the first caller only.
    func claim() -> Bool {
        defer { claimed = true }
        return !claimed
    }
}

extension HTTPBody {
    /// The body's lines as they arrive, without their `\n`.
    func splitIntoLines() -> AsyncThrowingStream<String, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    var pending = [UInt8]()
                    for try await chunk in self {
                        pending.append(contentsOf: chunk)
                        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                            continuation.yield(String(decoding: pending[..<newline], as: UTF8.self))
                            pending.removeSubrange(...newline)
                        }
                    }
                    if !pending.isEmpty { continuation.yield(String(decoding: pending, as: UTF8.self)) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
#endif

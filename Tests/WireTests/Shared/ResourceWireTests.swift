#if WIRE_SUITES
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl
import SwiftApiDslCache

/// A resource revalidates against nginx's own `ETag`, `Last-Modified` and `304`: the server
/// decides, the resource keeps or replaces its value.
@Suite struct ResourceWireTests {
    /// What went on the wire, as observers see it: `<status> <If-None-Match> <If-Modified-Since>`.
    final class Exchanges: Sendable {
        let trail = Trail()
        func observe(_ event: RequestEvent) {
            guard case .responseHead(let statusCode, _, let request) = event.kind else { return }
            let ifNoneMatch = request.headerFields["If-None-Match"] ?? "-"
            let ifModifiedSince = request.headerFields["If-Modified-Since"] ?? "-"
            trail.add("\(statusCode) \(ifNoneMatch) \(ifModifiedSince)")
        }
    }

    /// A fresh file nginx serves as `["<items>"]`, its resource counting decodes, and the
    /// exchanges observed.
    private func served(_ items: [String]) throws -> (name: String, resource: Resource<[String]>, decodes: Trail, exchanges: Exchanges) {
        let name = "resource-\(UUID().uuidString).json"
        try Nginx.write(try JSONEncoder().encode(items), as: name)
        let decodes = Trail()   // (`Locked` is internal to the library; this folder also builds in AsyncHTTPClientWireTests)
        let exchanges = Exchanges()
        let endpoint = Endpoint<[String]>(.get, name) { response in
            decodes.add("decoded")
            return try JSONDecoder().decode([String].self, from: response.body)
        }
        let client = try Nginx.client().observer(exchanges.observe).httpStatusCodeRange(200...299)
        return (name, client.resource(endpoint.acceptableContentTypes(["application/json"])), decodes, exchanges)
    }

    /// nginx's validators for the file, from a plain request.
    private func validators(of name: String) async throws -> String {
        let response = try await Nginx.client().get(name).perform()
        return "\(response.headerFields["ETag"] ?? "none") \(response.headerFields["Last-Modified"] ?? "none")"
    }

    @Test func aReloadSendsNginxsValidatorsAndItsNotModifiedKeepsTheValueUndecoded() async throws {
        let (name, todos, decodes, exchanges) = try served(["a"])
        #expect(try await todos.value() == ["a"])
        #expect(try await todos.reload() == ["a"])
        todos.invalidate()
        #expect(try await todos.value() == ["a"])   // after invalidate too
        let validators = try await validators(of: name)
        #expect(exchanges.trail.all == ["200 - -", "304 \(validators)", "304 \(validators)"])
        #expect(decodes.all.count == 1)
        guard case .loaded(let value) = todos.state else { Issue.record("state \(todos.state)"); return }
        #expect(value == ["a"])
        #expect(todos.latestValue == ["a"])
    }

    @Test func aChangedFileIsLoadedAgainAndItsNewValidatorsAreSentNext() async throws {
        let (name, todos, decodes, exchanges) = try served(["a"])
        #expect(try await todos.value() == ["a"])
        let old = try await validators(of: name)
        // Another size: another entity tag, even within the same second.
        try Nginx.write(try JSONEncoder().encode(["b", "c"]), as: name)
        let new = try await validators(of: name)
        #expect(old != new)
        #expect(try await todos.reload() == ["b", "c"])
        #expect(try await todos.reload() == ["b", "c"])
        #expect(exchanges.trail.all == ["200 - -", "200 \(old)", "304 \(new)"])
        #expect(decodes.all.count == 2)
        #expect(todos.latestValue == ["b", "c"])
    }
}
#endif

import Foundation
import SwiftApiDsl
import SwiftApiDslCache
import SwiftApiDslMock
import Testing
import TodoApi

/// Seed 003's `StatefulEndpoint`, ported onto `Resource`, used as a main-actor screen would:
/// read at once, load without awaiting, observe on the main queue while the screen lives.
@MainActor
@Suite struct StatefulEndpointTests {
    let mock: ApiClientMock = {
        let mock = Todos.client(baseUrl: URL(string: "http://localhost:8080")!).mocked()
        mock.appliesValidators = true
        return mock
    }()

    /// A screen that writes down what it was shown.
    final class Screen: Sendable {
        let shown = Locked<[String]>([])
        func show(_ state: StatefulEndpoint<[Todo]>.State) {
            let text = switch state {
            case .empty: "empty"
            case .loading(let todos): "loading(\(todos?.map(\.title).joined() ?? "-"))"
            case .success(let todos): "success(\(todos.map(\.title).joined()))"
            case .failure(let error): "failure(\(error.statusCode ?? 0))"
            }
            shown.withLock { $0.append(text) }
        }
        var all: [String] { shown.withLock { $0 } }
    }

    /// Lets the main queue run what was queued on it so far.
    private func mainQueueDrained() async {
        await withCheckedContinuation { done in DispatchQueue.main.async { done.resume() } }
    }

    /// Answers `todos` with one to-do titled `title` and `ETag: "<title>"`, or a 304 when asked with that tag.
    private func serve(_ title: Locked<String>) {
        mock.resultProvider = { request in
            let current = title.withLock { $0 }
            if request.value(forHTTPHeaderField: "If-None-Match") == "\"\(current)\"" { return .response(request, statusCode: 304) }
            return .response(request, body: [Todo(id: 1, title: current, completed: false)], headers: ["ETag": "\"\(current)\""])
        }
    }

    @Test func aScreenLoadsAndIsShownEachStateOnTheMainQueue() async throws {
        let title = Locked("Learn Swift")
        serve(title)
        let all = StatefulEndpoint(mock.resource(Todos.all()))
        let screen = Screen()
        all.observe(owner: screen) { screen.show($0) }
        _ = try await all.load().value
        _ = try await all.load().value           // the server answers 304: the same to-dos
        title.withLock { $0 = "Learn SwiftUI" }
        _ = try await all.resource.reload()
        await mainQueueDrained()
        #expect(screen.all == [
            "empty", "loading(-)", "success(Learn Swift)",
            "loading(Learn Swift)", "success(Learn Swift)",
            "loading(Learn Swift)", "success(Learn SwiftUI)",
        ])
        #expect(mock.recordedRequests.map { $0.header(.ifNoneMatch) ?? "-" } == ["-", "\"Learn Swift\"", "\"Learn Swift\""])
    }

    @Test func aCancelledLoadReturnsToEmptyAndAScreenGoneIsShownNothingMore() async throws {
        serve(Locked("Learn Swift"))
        mock.latency = 60                        // the load runs until cancelled
        let all = StatefulEndpoint(mock.resource(Todos.all()))
        var screen: Screen? = Screen()
        let shown = try #require(screen).shown
        all.observe(owner: try #require(screen)) { [weak screen] in screen?.show($0) }
        all.load()
        guard case .loading(nil) = all.state else { Issue.record("\(all.state)"); return }
        all.cancel()
        guard case .empty = all.state else { Issue.record("\(all.state)"); return }
        await mainQueueDrained()
        screen = nil
        mock.latency = 0
        _ = try await all.resource.value()
        await mainQueueDrained()
        #expect(shown.withLock { $0 } == ["empty", "loading(-)", "empty"])
    }
}

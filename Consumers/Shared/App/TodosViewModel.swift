import Foundation
import Observation
import SwiftApiDsl
import SwiftApiDslCache

/// A screen's model: observed by SwiftUI, updated on the main actor from what the library
/// loads, streams and downloads off it.
@Observable @MainActor
final class TodosViewModel {
    private(set) var todos: [Todo] = []
    private(set) var isLoading = false
    private(set) var errorMessage: String?
    private(set) var events: [String] = []
    private(set) var downloadProgress = 0.0

    @ObservationIgnored let resource: Resource<[Todo]>
    @ObservationIgnored let client: ApiClient

    init(client: ApiClient) {
        self.client = client
        resource = client.resource(TodoApi.todos())
    }

    /// Follows the shared resource's states until the task is cancelled.
    func observe() async {
        for await state in resource.states {
            switch state {
            case .idle: isLoading = false
            case .loading: isLoading = true
            case .loaded(let todos): self.todos = todos; isLoading = false; errorMessage = nil
            case .failed(let error): isLoading = false; errorMessage = error.localizedDescription
            }
        }
    }

    func load() async {
        do { todos = try await resource.value() } catch { errorMessage = error.localizedDescription }
    }

    /// Server-Sent Events, appended as they arrive; ends with the stream or the task.
    func listen() async throws {
        for try await case .event(let event) in client.get("events").serverSentEvents(maxReconnects: 0) {
            events.append("\(event.type): \(event.data)")
        }
    }

    /// A download whose progress reaches this main-actor property: the handler is called off
    /// the main actor, so it hops back with a main-actor task (tasks may land out of order, so
    /// the property only grows).
    func download(to destination: URL) async throws {
        try await client.get("export")
            .downloadProgress { progress in
                let fraction = progress.fractionCompleted ?? 0
                Task { @MainActor in self.downloadProgress = max(self.downloadProgress, fraction) }
            }
            .download(destination: destination)
    }
}

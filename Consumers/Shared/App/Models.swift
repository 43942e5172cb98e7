import Foundation

// Models are values the library encodes and decodes off the main actor: in a target with
// main-actor isolation by default they are declared `nonisolated` (and `Sendable`), so their
// `Codable` conformances can be used from any task. The same code compiles in plain Swift 6.

nonisolated struct Todo: Codable, Sendable, Equatable, Identifiable {
    var id: Int
    var title: String
    var isDone: Bool
}

nonisolated struct NewTodo: Codable, Sendable, Equatable {
    var title: String
    var isDone = false
}

nonisolated struct TodoPage: Codable, Sendable {
    var results: [Todo]
    var next: URL?
}

/// The server's error document, thrown by `decodingErrorBody(_:)`.
nonisolated struct ApiProblem: Decodable, Error, Sendable {
    var reason: String
}

nonisolated struct TokenPair: Codable, Sendable, Equatable {
    var access: String
    var refresh: String
}

nonisolated struct Receipt: Codable, Sendable, Equatable {
    var id: String
}

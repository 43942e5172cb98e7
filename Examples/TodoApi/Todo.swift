/// A to-do item as the server stores it.
public struct Todo: Codable, Sendable, Equatable {
    public let id: Int
    public var title: String
    public var completed: Bool

    public init(id: Int, title: String, completed: Bool) {
        self.id = id
        self.title = title
        self.completed = completed
    }
}

/// A to-do item to create; the server gives it its `id`.
public struct NewTodo: Codable, Sendable, Equatable {
    public var title: String
    public var completed: Bool

    public init(title: String, completed: Bool = false) {
        self.title = title
        self.completed = completed
    }
}

/// One page of books.
public struct BookList: Decodable, Sendable, Equatable {
    public let count: Int
    public let next: String?
    public let previous: String?
    public let results: [Book]
}

/// A Project Gutenberg book.
public struct Book: Decodable, Sendable, Equatable {
    public let id: Int
    public let title: String
    public let subjects: [String]
    public let authors: [Person]
    public let translators: [Person]
    public let bookshelves: [String]
    public let languages: [String]
    public let copyright: Bool?
    public let mediaType: String
    public let formats: [String: String]
    public let downloadCount: Int
}

/// An author or translator.
public struct Person: Decodable, Sendable, Equatable {
    public let birthYear: Int?
    public let deathYear: Int?
    public let name: String
}

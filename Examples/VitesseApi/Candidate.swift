/// A job candidate.
public struct Candidate: Codable, Sendable, Equatable {
    public let id: String
    public var firstName: String
    public var lastName: String
    public var email: String
    public var phone: String?
    public var linkedinURL: String?
    public var note: String?
    public var isFavorite: Bool

    public init(id: String, firstName: String, lastName: String, email: String,
                phone: String? = nil, linkedinURL: String? = nil, note: String? = nil, isFavorite: Bool = false) {
        self.id = id
        self.firstName = firstName
        self.lastName = lastName
        self.email = email
        self.phone = phone
        self.linkedinURL = linkedinURL
        self.note = note
        self.isFavorite = isFavorite
    }
}

/// The credentials that open a session.
public struct Credentials: Codable, Sendable, Equatable {
    public var email: String
    public var password: String

    public init(email: String, password: String) {
        self.email = email
        self.password = password
    }
}

/// An open session: the token that authenticates every other call.
public struct Session: Codable, Sendable, Equatable {
    public let token: String
    public let isAdmin: Bool

    public init(token: String, isAdmin: Bool) {
        self.token = token
        self.isAdmin = isAdmin
    }
}

import Foundation

/// The small JSON document every round-trip benchmark fetches and decodes: a user record of
/// 458 bytes, the size of a typical API answer.
struct UserRecord: Codable, Sendable, Equatable {
    struct Address: Codable, Sendable, Equatable {
        var street: String
        var city: String
        var postalCode: String
        var country: String
    }

    var id: Int
    var login: String
    var name: String
    var email: String
    var isActive: Bool
    var roles: [String]
    var score: Double
    var createdAt: String
    var address: Address
    var tags: [String]
    var bio: String

    static let sample = UserRecord(
        id: 421_337,
        login: "ada.lovelace",
        name: "Ada Lovelace",
        email: "ada.lovelace@example.com",
        isActive: true,
        roles: ["admin", "editor", "billing"],
        score: 98.75,
        createdAt: "2024-05-17T09:41:00Z",
        address: Address(street: "12 St James's Square", city: "London", postalCode: "SW1Y 4JH", country: "GB"),
        tags: ["analytical-engine", "mathematics", "poetry", "notes"],
        bio: "Wrote the first published algorithm for a machine; fond of numbers, horses and music."
    )

    /// The document as the server stores it, padded with spaces to exactly 458 bytes.
    static func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var data = try encoder.encode(sample)
        if data.count < 458 { data.append(Data(repeating: UInt8(ascii: " "), count: 458 - data.count)) }
        return data
    }
}

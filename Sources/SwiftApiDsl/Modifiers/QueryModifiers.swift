import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Query modifiers. Items are appended after those already in the URL (the base URL's included)
// and percent-encoded strictly: only letters, digits and `-._~` are left as they are.

extension RequestModifier {
    /// Appends one query item. A `nil` value sends the bare name (`?flag`).
    public static func queryItem(name: String, _ value: String?) -> RequestModifier {
        queryItems([URLQueryItem(name: name, value: value)])
    }

    /// Appends query items, sorted by name so that the URL is the same on every run.
    public static func queryItems(_ items: [String: String]) -> RequestModifier {
        queryItems(items.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) })
    }

    /// Appends query items in the given order; names may repeat (`?id=1&id=2`).
    public static func queryItems(_ items: [URLQueryItem]) -> RequestModifier {
        .init(editing: { request in
            guard !items.isEmpty, let url = request.url else { return }
            request.url = try URLResolution.appending(items, to: url)
        })
    }
}

extension RequestModifiable {
    /// Appends one query item; a `nil` value sends the bare name.
    public func queryItem(name: String, _ value: String?) -> Self { modifier(.queryItem(name: name, value)) }
    /// Appends query items, sorted by name.
    public func queryItems(_ items: [String: String]) -> Self { modifier(.queryItems(items)) }
    /// Appends query items in order.
    public func queryItems(_ items: [URLQueryItem]) -> Self { modifier(.queryItems(items)) }
}

import Foundation

extension URL {
    /// The URL as text with its password, if any, replaced, as the library's descriptions show URLs.
    var redactedString: String {
        guard password != nil, var components = URLComponents(url: self, resolvingAgainstBaseURL: true) else {
            return absoluteString
        }
        components.password = "<redacted>"
        return components.string ?? absoluteString
    }
}

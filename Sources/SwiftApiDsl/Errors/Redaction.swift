import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Text forms of requests and errors with secrets taken out. `package`: the mock describes
/// requests the same way.
package enum Redaction {
    static let placeholder = "<redacted>"

    /// `GET http://host/path?query`, the URL without its password.
    static func line(for request: URLRequest) -> String {
        "\(request.httpMethod ?? "GET") \(request.url.map(url) ?? "<no URL>")"
    }

    /// The URL as text, its password (if any) and the values of its secret query items
    /// (named as secret headers are, see ``SecretNames``) replaced.
    package static func url(_ url: URL) -> String {
        urlText(url.absoluteString)
    }

    /// ``url(_:)`` for a URL or a relative reference in text, such as a `Location` header.
    static func urlText(_ text: String) -> String {
        // Not expected for a URL that was built, but nothing unredacted may leave here.
        let notShown = "<URL not shown: it could not be redacted>"
        guard var components = URLComponents(string: text) else {
            return text.contains("@") || text.contains("?") ? notShown : text
        }
        let items = components.percentEncodedQueryItems ?? []
        let secretItem = { (item: URLQueryItem) in item.value != nil && SecretNames.contains(item.name.removingPercentEncoding ?? item.name) }
        guard components.password != nil || items.contains(where: secretItem) else { return text }
        if components.password != nil { components.password = placeholder }
        if items.contains(where: secretItem) {
            components.percentEncodedQueryItems = items.map { item in
                secretItem(item) ? URLQueryItem(name: item.name, value: encodedPlaceholder) : item
            }
        }
        return components.string ?? notShown
    }

    /// The placeholder as it appears inside a URL or a form.
    static let encodedPlaceholder = "%3Credacted%3E"

    /// The request's headers, secret values replaced, sorted by name.
    static func headers(of request: URLRequest) -> [String: String] {
        headers(request.allHTTPHeaderFields ?? [:])
    }

    /// `headers` with the values of secret fields (see ``SecretNames``) replaced, and URLs in
    /// fields that hold one redacted as ``url(_:)`` does.
    static func headers(_ headers: [String: String]) -> [String: String] {
        var headers = headers
        for (name, value) in headers {
            if SecretNames.contains(name) {
                headers[name] = placeholder
            } else if urlFields.contains(name.lowercased()) {
                headers[name] = urlText(value)
            }
        }
        return headers
    }

    /// The header fields whose value is a URL, which may carry a password or a secret query item.
    private static let urlFields: Set<String> = ["location", "content-location", "referer", "origin"]

    /// What a mirror shows of a request: method, URL and redacted headers.
    package static func mirrorChildren(of request: URLRequest) -> [(label: String?, value: Any)] {
        [
            ("method", request.httpMethod ?? "GET"),
            ("url", request.url.map(url) ?? "<no URL>"),
            ("headers", headers(of: request).sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }),
        ]
    }

    /// A one-line description of an error: its own description, with the code for `URLError`s
    /// (whose Linux description is only a domain and a number).
    static func describe(_ error: Error) -> String {
        switch error {
        case let error as URLError:
            "URLError \(error.code.rawValue) (\(urlErrorName(error.code)))"
        case let error as DecodingError:
            describe(error)
        case is CancellationError:
            "the task was cancelled (CancellationError)"
        case let error as LocalizedError where error.errorDescription != nil:
            error.errorDescription ?? ""
        default:
            String(describing: error)
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        let (kind, context): (String, DecodingError.Context?) = switch error {
        case .typeMismatch(let type, let context): ("type mismatch for \(type)", context)
        case .valueNotFound(let type, let context): ("value of \(type) not found", context)
        case .keyNotFound(let key, let context): ("key '\(key.stringValue)' not found", context)
        case .dataCorrupted(let context): ("data corrupted", context)
        @unknown default: ("decoding error", nil)
        }
        guard let context else { return kind }
        let path = context.codingPath.map(\.stringValue).joined(separator: ".")
        return "\(kind) at '\(path.isEmpty ? "<root>" : path)': \(context.debugDescription)"
    }

    private static func urlErrorName(_ code: URLError.Code) -> String {
        switch code {
        case .cancelled: "cancelled"
        case .timedOut: "timed out"
        case .cannotConnectToHost: "cannot connect to host"
        case .cannotFindHost: "cannot find host"
        case .networkConnectionLost: "network connection lost"
        case .notConnectedToInternet: "not connected to internet"
        case .httpTooManyRedirects: "too many redirects"
        case .badServerResponse: "bad server response"
        case .badURL: "bad URL"
        case .unsupportedURL: "unsupported URL"
        case .dataLengthExceedsMaximum: "data length exceeds maximum"
        default: "code \(code.rawValue)"
        }
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Text forms of requests and errors with secrets taken out: the one implementation behind every
/// text the library makes (descriptions, mirrors, cURL lines, observer events), by the rule of
/// ``SecretNames``. `package`: the mock describes requests the same way.
package enum Redaction {
    static let placeholder = "<redacted>"
    /// The placeholder as it appears inside a URL or a form.
    static let encodedPlaceholder = "%3Credacted%3E"

    /// `GET http://host/path?query`, the URL without its password.
    static func line(for request: URLRequest) -> String {
        "\(request.httpMethod ?? "GET") \(request.url.map(url) ?? "<no URL>")"
    }

    /// The URL as text, its password (if any) and the values of its secret query items replaced.
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
        let query = components.percentEncodedQuery.map(pairs)
        guard components.password != nil || query != components.percentEncodedQuery else { return text }
        if components.password != nil { components.password = placeholder }
        components.percentEncodedQuery = query
        return components.string ?? notShown
    }

    /// `a=1&password=x` → `a=1&password=%3Credacted%3E`, for a query or a form body: the values
    /// of secret names replaced, the order and encoding of the rest kept. A name counts as
    /// secret percent-decoded, with or without `+` read as a space.
    static func pairs(_ text: String) -> String {
        text.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let name = String(pair[..<equals])
            let readings = [name, name.replacingOccurrences(of: "+", with: " ")].map { $0.removingPercentEncoding ?? $0 }
            guard readings.contains(where: SecretNames.contains) else { return String(pair) }
            return "\(name)=\(encodedPlaceholder)"
        }.joined(separator: "&")
    }

    /// `value` as text shows it in the header field `name`: the placeholder for a secret's, a URL
    /// redacted as ``url(_:)`` does in the fields that hold one.
    static func value(_ value: String, of name: String) -> String {
        if SecretNames.contains(name) { return placeholder }
        return urlFields.contains(name.lowercased()) ? urlText(value) : value
    }

    /// The header fields whose value is a URL, which may carry a password or a secret query item.
    private static let urlFields: Set<String> = ["location", "content-location", "referer", "origin"]

    /// `headers` with each value redacted as ``value(_:of:)`` does.
    static func headers(_ headers: [String: String]) -> [String: String] {
        headers.reduce(into: [:]) { $0[$1.key] = value($1.value, of: $1.key) }
    }

    /// The request's redacted headers as `Name: value` lines, sorted by name.
    static func headerLines(of request: URLRequest) -> [String] {
        headers(request.allHTTPHeaderFields ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
    }

    /// What a mirror shows of a request: method, URL and redacted headers.
    package static func mirrorChildren(of request: URLRequest) -> [(label: String?, value: Any)] {
        [("method", request.httpMethod ?? "GET"), ("url", request.url.map(url) ?? "<no URL>"), ("headers", headerLines(of: request))]
    }

    /// A text body as a cURL line shows it: in JSON and form-urlencoded bodies, whose fields have
    /// names, the values of secret fields replaced; other bodies as they are.
    static func body(_ text: String, contentType: String?) -> String {
        let type = contentType?.lowercased() ?? ""
        if type.contains("json") { return json(text) }
        return type.contains("x-www-form-urlencoded") ? pairs(text) : text
    }

    /// A JSON body with a secret key anywhere is re-serialised (sorted keys) with those values
    /// replaced; one without is returned as it was, byte for byte. Invalid JSON is returned as it is.
    private static func json(_ text: String) -> String {
        guard let value = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed) else { return text }
        var found = false
        let redacted = json(value, found: &found)
        guard found else { return text }
        let data = try? JSONSerialization.data(withJSONObject: redacted, options: [.sortedKeys, .fragmentsAllowed])
        return data.flatMap { String(data: $0, encoding: .utf8) } ?? placeholder
    }

    private static func json(_ value: Any, found: inout Bool) -> Any {
        switch value {
        case let object as [String: Any]:
            return object.reduce(into: [String: Any]()) { result, member in
                let secret = SecretNames.contains(member.key)
                found = found || secret
                result[member.key] = secret ? placeholder : json(member.value, found: &found)
            }
        case let array as [Any]:
            return array.map { json($0, found: &found) }
        default:
            return value
        }
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
        // TLS: the name says so, as the handshake's failures read alike otherwise.
        case .secureConnectionFailed: "TLS: secure connection failed"
        case .serverCertificateHasBadDate: "TLS: server certificate has bad date"
        case .serverCertificateUntrusted: "TLS: server certificate untrusted"
        case .serverCertificateHasUnknownRoot: "TLS: server certificate has unknown root"
        case .serverCertificateNotYetValid: "TLS: server certificate not yet valid"
        case .clientCertificateRejected: "TLS: client certificate rejected"
        case .clientCertificateRequired: "TLS: client certificate required"
        case .appTransportSecurityRequiresSecureConnection: "TLS: app transport security requires a secure connection"
        default: "code \(code.rawValue)"
        }
    }
}

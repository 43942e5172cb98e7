import Foundation

/// Secret values taken out of a text body before it is shown, for the body types whose fields
/// have names: JSON and form-urlencoded. Other bodies are shown as they are.
enum BodyRedaction {
    /// `text` with the values of secret fields (see ``SecretNames``) replaced by `<redacted>`.
    static func redact(_ text: String, contentType: String?) -> String {
        let type = contentType?.lowercased() ?? ""
        if type.contains("json") { return redactJSON(text) }
        if type.contains("x-www-form-urlencoded") { return redactForm(text) }
        return text
    }

    /// A JSON body with a secret key anywhere is re-serialised (sorted keys) with those values
    /// replaced; one without is returned as it was, byte for byte. Invalid JSON is returned as it is.
    private static func redactJSON(_ text: String) -> String {
        guard let value = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed) else { return text }
        var found = false
        let redacted = redact(value, found: &found)
        guard found,
              let data = try? JSONSerialization.data(withJSONObject: redacted, options: [.sortedKeys, .fragmentsAllowed]),
              let result = String(data: data, encoding: .utf8)
        else { return found ? Redaction.placeholder : text }
        return result
    }

    private static func redact(_ value: Any, found: inout Bool) -> Any {
        switch value {
        case let object as [String: Any]:
            var result: [String: Any] = [:]
            for (key, member) in object {
                if SecretNames.contains(key) {
                    found = true
                    result[key] = Redaction.placeholder
                } else {
                    result[key] = redact(member, found: &found)
                }
            }
            return result
        case let array as [Any]:
            return array.map { redact($0, found: &found) }
        default:
            return value
        }
    }

    /// `a=1&password=x` → `a=1&password=%3Credacted%3E`; the order and encoding of the rest are kept.
    private static func redactForm(_ text: String) -> String {
        text.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let name = String(pair[..<equals]).replacingOccurrences(of: "+", with: " ")
            guard SecretNames.contains(name.removingPercentEncoding ?? name) else { return String(pair) }
            return "\(pair[..<equals])=\(Redaction.encodedPlaceholder)"
        }.joined(separator: "&")
    }
}

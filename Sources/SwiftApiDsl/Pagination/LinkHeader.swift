import Foundation

/// RFC 8288 `Link` header values: `<https://h/items?page=2>; rel="next", </items?page=9>; rel=last`.
enum LinkHeader {
    /// The target of the first link whose relation types include `relation` (ignoring case),
    /// as written, so that the caller resolves a relative one against the page's URL.
    ///
    /// Several links per header, links in any order, commas and semicolons inside `<…>` or
    /// quoted values, and space-separated relation lists (`rel="prev first"`) are understood.
    /// Read scalar by scalar: a delimiter followed by a combining mark (`<\u{301}`, `"\u{301}`)
    /// is one `Character`, equal to no delimiter, which hid the links after it.
    static func target(of relation: String, in header: String) -> String? {
        var rest = Substring(header).unicodeScalars
        while let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            let target = Substring(rest[rest.index(after: open)..<close])
            let (parameters, remainder) = parameters(in: rest[rest.index(after: close)...])
            rest = remainder
            let relations = parameters["rel"]?.split(whereSeparator: { $0 == " " || $0 == "\t" }) ?? []
            if relations.contains(where: { $0.lowercased() == relation.lowercased() }) {
                return target.trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    /// The `; name=value` parameters of one link, up to the comma that ends it, and what follows.
    private static func parameters(in text: Substring.UnicodeScalarView) -> ([String: String], Substring.UnicodeScalarView) {
        var parameters: [String: String] = [:]
        var index = text.startIndex
        var name = "", value = "", readingValue = false, quoted = false
        func finish() {
            let key = name.trimmingCharacters(in: .whitespaces).lowercased()
            // The first occurrence of a parameter wins (RFC 8288, section 3).
            if !key.isEmpty, parameters[key] == nil { parameters[key] = value.trimmingCharacters(in: .whitespaces) }
            name = ""; value = ""; readingValue = false
        }
        while index < text.endIndex {
            let character = text[index]
            index = text.index(after: index)
            if quoted {
                if character == "\\", index < text.endIndex {
                    value.unicodeScalars.append(text[index])
                    index = text.index(after: index)
                } else if character == "\"" {
                    quoted = false
                } else {
                    value.unicodeScalars.append(character)
                }
            } else if character == "\"" && readingValue {
                quoted = true
            } else if character == ";" {
                finish()
            } else if character == "," {
                break
            } else if character == "=" && !readingValue {
                readingValue = true
            } else if readingValue {
                value.unicodeScalars.append(character)
            } else {
                name.unicodeScalars.append(character)
            }
        }
        finish()
        return (parameters, text[index...])
    }
}

/// Fuzzes header fields (Sources/SwiftApiDsl/Response/HeaderFields.swift) and their validation
/// before sending (Pipeline/RequestPipeline.swift, with names from Modifiers/HeaderField.swift).
///
/// Properties: a sequence of `append`, `set` and removals leaves the fields a plain list model
/// leaves, and lookups (`subscript`, `values(for:)`, `merged`) agree with the model, names
/// compared without regard to ASCII case only; a field the check accepts has a name of HTTP
/// token characters and a value with no control character but tab (no CR, LF or NUL); the
/// check accepts every such field.
@testable import SwiftApiDsl

let headerFieldsHarness: Harness = { input in
    var fields = HeaderFields()
    var model: [(name: String, value: String)] = []
    let knownNames = [HeaderField.contentType, .authorization, .location, .cookie].map(\.rawValue)
    func name() -> String {
        let base = input.bool() ? input.pick(knownNames + ["Set-Cookie", "X-A"]) : input.string()
        return input.bool() ? base.uppercased() : base
    }

    while !input.isAtEnd {
        let name = name()
        let value = input.string()
        switch input.int(in: 0...3) {
        case 0:
            fields.append(value, for: name)
            model.append((name, value))
        case 1, 2:
            let newValue: String? = input.bool() ? value : nil
            fields.set(newValue, for: name)
            if let first = model.firstIndex(where: { sameName($0.name, name) }) {
                model = model.enumerated().compactMap { index, field in
                    if index == first { return newValue.map { (name, $0) } }
                    return sameName(field.name, name) ? nil : field
                }
            } else if let newValue {
                model.append((name, newValue))
            }
        default:
            let accepted = (try? FinishedRequestCheck.checkField(name, value)) != nil
            let expected = !name.isEmpty && name.utf8.allSatisfy(isTokenByte)
                && value.unicodeScalars.allSatisfy { $0 == "\t" || ($0.value >= 0x20 && $0.value != 0x7F) }
            require(accepted == expected, "check of \(name.debugDescription): \(value.debugDescription) gave \(accepted)")
            if accepted {
                require(!value.unicodeScalars.contains { $0 == "\r" || $0 == "\n" || $0 == "\u{0}" }, "accepted a line break or NUL")
            }
        }
        require(fields.fields.map(\.name) == model.map(\.name) && fields.fields.map(\.value) == model.map(\.value),
                "fields \(fields.fields) differ from the model \(model)")
        let values = model.filter { sameName($0.name, name) }.map(\.value)
        require(fields.values(for: name) == values, "values(for: \(name)) is \(fields.values(for: name)), expected \(values)")
        require(fields[name] == (values.isEmpty ? nil : values.joined(separator: ", ")), "subscript \(name) is \(fields[name] ?? "nil")")
    }

    // `merged` (the form HTTPURLResponse takes): one entry per name, values joined in order.
    let merged = fields.merged
    var seen: [String] = []
    for field in model where !seen.contains(where: { sameName($0, field.name) }) {
        seen.append(field.name)
        let joined = model.filter { sameName($0.name, field.name) }.map(\.value).joined(separator: ", ")
        require(merged[field.name] == joined, "merged[\(field.name)] is \(merged[field.name] ?? "nil"), expected \(joined)")
    }
    require(merged.count == seen.count, "merged has \(merged.count) names, expected \(seen.count)")
}

private func sameName(_ a: String, _ b: String) -> Bool {
    Array(asciiLowercased(a).utf8) == Array(asciiLowercased(b).utf8)
}

/// RFC 9110 `tchar`.
private func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
    case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
         UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
         UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"): true
    default: false
    }
}

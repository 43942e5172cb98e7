import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Header fields in the order they came, looked up without regard to case, as HTTP says.
///
/// ```swift
/// var fields: HeaderFields = ["Content-Type": "text/plain"]
/// fields.append("a=1", for: "Set-Cookie")
/// fields["content-type"]   // "text/plain"
/// ```
/// A field that came several times keeps every value; ``subscript(_:)`` joins them with `", "`.
public struct HeaderFields: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// One header field.
    public struct Field: Sendable, Hashable {
        /// The name as received.
        public var name: String
        /// The value.
        public var value: String
    }

    /// Every field, in order.
    public private(set) var fields: [Field] = []

    /// No fields.
    public init() {}

    /// The given fields, in order.
    init(_ fields: [Field]) {
        self.fields = fields
    }

    /// The fields of a literal, `["Accept": "application/json"]`, in the order written.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The fields of a Foundation response.
    init(_ response: HTTPURLResponse) {
        let all = response.allHeaderFields
        fields.reserveCapacity(all.count)
        // The names and values are strings: a cast is much cheaper than an interpolation.
        for (name, value) in all {
            fields.append(Field(name: name.base as? String ?? "\(name)", value: value as? String ?? "\(value)"))
        }
    }

    /// Adds a field after the others, keeping those of the same name.
    public mutating func append(_ value: String, for name: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Sets the field `name` (any case) to `value`, in place of every value it had, where it
    /// first stood; `nil` removes it.
    ///
    /// ```swift
    /// fields.set("text/plain", for: "Content-Type")
    /// ```
    public mutating func set(_ value: String?, for name: String) {
        guard let first = fields.firstIndex(where: { Self.sameName($0.name, name) }) else {
            if let value { fields.append(Field(name: name, value: value)) }
            return
        }
        var next = first
        if let value {
            fields[first] = Field(name: name, value: value)
            next += 1
        } else {
            fields.remove(at: first)
        }
        // Repeated fields of that name (from `append`) go too.
        while next < fields.count {
            if Self.sameName(fields[next].name, name) { fields.remove(at: next) } else { next += 1 }
        }
    }

    /// Takes the fields of `dictionary` (a `URLRequest`'s), keeping the order of those already
    /// here and adding the new ones sorted by name, so that the order is the same on every run.
    mutating func replaceAll(with dictionary: [String: String]) {
        var kept: [Field] = []
        var seen = Set<String>()
        for field in fields where seen.insert(field.name.lowercased()).inserted {
            if let (name, value) = dictionary.first(where: { Self.sameName($0.key, field.name) }) {
                kept.append(Field(name: name, value: value))
            }
        }
        for (name, value) in dictionary.sorted(by: { $0.key < $1.key }) where !seen.contains(name.lowercased()) {
            kept.append(Field(name: name, value: value))
        }
        fields = kept
    }

    /// The values of the field `name` (any case), joined with `", "`; `nil` when it is absent.
    public subscript(_ name: String) -> String? {
        var joined: String?
        for field in fields where Self.sameName(field.name, name) {
            joined = joined.map { $0 + ", " + field.value } ?? field.value
        }
        return joined
    }

    /// The values of the field `name` (any case), in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.sameName($0.name, name) }.map(\.value)
    }

    /// The length of the body these fields announce as it will be read: the `Content-Length`,
    /// unless a `Content-Encoding` makes the bytes read differ from the bytes sent (engines
    /// decode gzip). For a middleware that collects bodies only up to a size, as a cache does.
    ///
    /// ```swift
    /// if let length = response.headerFields.expectedBodyLength, length > 1 << 20 { return response }
    /// ```
    public var expectedBodyLength: Int64? {
        guard self["Content-Encoding"] == nil else { return nil }
        return self["Content-Length"].flatMap { Int64($0) }
    }

    /// The number of fields.
    public var count: Int { fields.count }

    /// The fields in order, repeated names included.
    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }

    /// One entry per name (the first spelling seen), values of repeated fields joined with
    /// `", "` as URLSession does: the form `HTTPURLResponse` takes.
    var merged: [String: String] {
        var result: [String: String] = [:]
        result.reserveCapacity(fields.count)
        var spelling: [String: String] = [:]
        for field in fields {
            let key = field.name.lowercased()
            if let name = spelling[key], let existing = result[name] {
                result[name] = existing + ", " + field.value
            } else {
                spelling[key] = field.name
                result[field.name] = field.value
            }
        }
        return result
    }

    /// Whether two field names are equal, ignoring ASCII case.
    static func sameName(_ a: String, _ b: String) -> Bool {
        let a = a.utf8, b = b.utf8
        guard a.count == b.count else { return false }
        return zip(a, b).allSatisfy { x, y in x == y || (x | 0x20 == y | 0x20 && (x | 0x20) >= 0x61 && (x | 0x20) <= 0x7A) }
    }
}

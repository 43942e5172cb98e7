import Foundation
import SwiftApiDsl

extension HeaderFields {
    /// Header fields a `304 Not Modified` does not replace (RFC 9111, section 3.2): they describe
    /// the 304 message itself, not the stored representation.
    private static let describingTheMessage: Set<String> = ["content-length", "content-encoding", "transfer-encoding",
                                                            "connection", "keep-alive", "cache-status"]

    /// These stored header fields after a `304` carrying `fields` confirmed them: each field the
    /// 304 carries (a new `ETag`, `Date`, `Cache-Control`…) replaces every stored field of that
    /// name, all its values kept, except the fields that describe the 304 message (the
    /// ``HTTPCache``'s rule, which `Resource` revalidates through).
    func updated(byNotModified fields: HeaderFields) -> HeaderFields {
        var updated = self
        for name in Set(fields.fields.map { $0.name.lowercased() }) where !Self.describingTheMessage.contains(name) {
            updated.set(nil, for: name)
            let spelling = fields.fields.first { $0.name.lowercased() == name }?.name ?? name
            for value in fields.values(for: name) { updated.append(value, for: spelling) }
        }
        return updated
    }
}

import Foundation

/// Percent-encoding as RFC 3986 defines it, with stricter sets than Foundation's
/// (`URLComponents` leaves `+`, `&` and `=` alone in query items, which servers then misread).
enum PercentEncoding {
    /// RFC 3986 "unreserved": the only bytes never encoded.
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// A path segment: unreserved plus the sub-delimiters that no server reads specially.
    private static func isPathSegmentByte(_ byte: UInt8) -> Bool {
        isUnreserved(byte) || "!$'()*,;:@".utf8.contains(byte)
    }

    /// Encodes one path segment: everything but letters, digits, `-._~!$'()*,;:@`.
    static func pathSegment(_ segment: String) -> String {
        encode(segment, keeping: isPathSegmentByte)
    }

    /// Encodes a query name or value: everything but letters, digits and `-._~`; space is `%20`.
    static func queryComponent(_ component: String) -> String {
        encode(component, keeping: isUnreserved)
    }

    /// Encodes `name=value` pairs as a query string, keeping a `nil` value as a bare name.
    static func query(_ items: [URLQueryItem]) -> String {
        items.map { item in
            let name = queryComponent(item.name)
            return item.value.map { "\(name)=\(queryComponent($0))" } ?? name
        }.joined(separator: "&")
    }

    /// Encodes pairs as `application/x-www-form-urlencoded`: like a query, with space as `+`.
    static func form(_ items: [URLQueryItem]) -> String {
        query(items).replacingOccurrences(of: "%20", with: "+")
    }

    /// `text` with every UTF-8 byte that `keep` refuses written as `%XX`.
    private static func encode(_ text: String, keeping keep: (UInt8) -> Bool) -> String {
        if text.utf8.allSatisfy(keep) { return text }
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count * 3)
        for byte in text.utf8 {
            if keep(byte) {
                bytes.append(byte)
            } else {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

import Foundation
import SwiftApiDsl

/// The bytes of a ``CacheEntry`` in a ``DirectoryCacheStore``'s file:
///
///     "SwiftApiDsl cache 1\n" · length of the head (8 bytes) · head (JSON) · length of the body (8 bytes) · body · SHA-256 of all before (32 bytes)
///
/// Decoding checks every length against the file's and the digest, so a file cut short,
/// extended or altered decodes to `nil`.
enum CacheEntryFile {
    private static let magic = Data("SwiftApiDsl cache 1\n".utf8)

    private struct Head: Codable {
        struct Field: Codable { var name: String; var value: String? }
        var url: String
        var partition: String
        var statusCode: Int
        var fields: [Field]
        var requestTime: Double
        var responseTime: Double
        var varied: [Field]
    }

    static func encode(_ entry: CacheEntry) -> Data {
        let head = Head(url: entry.url, partition: entry.partition, statusCode: entry.statusCode,
                        fields: entry.headerFields.fields.map { .init(name: $0.name, value: $0.value) },
                        requestTime: entry.requestTime.timeIntervalSince1970, responseTime: entry.responseTime.timeIntervalSince1970,
                        varied: entry.varied.sorted { $0.key < $1.key }.map { .init(name: $0.key, value: $0.value) })
        let headData = (try? JSONEncoder().encode(head)) ?? Data()
        var data = magic
        append(UInt64(headData.count), to: &data)
        data.append(headData)
        append(UInt64(entry.body.count), to: &data)
        data.append(entry.body)
        data.append(contentsOf: SHA256.digest(data))
        return data
    }

    static func decode(_ data: Data) -> CacheEntry? {
        let bytes = [UInt8](data)
        guard bytes.count >= magic.count + 16 + 32, bytes.starts(with: magic) else { return nil }
        let content = bytes.count - 32
        guard SHA256.digest(bytes[0..<content]) == Array(bytes[content...]) else { return nil }
        var offset = magic.count
        guard let headLength = length(in: bytes, at: &offset, before: content) else { return nil }
        let headBytes = bytes[offset..<(offset + headLength)]
        offset += headLength
        guard let bodyLength = length(in: bytes, at: &offset, before: content), offset + bodyLength == content,
              let head = try? JSONDecoder().decode(Head.self, from: Data(headBytes))
        else { return nil }
        var fields = HeaderFields()
        for field in head.fields { fields.append(field.value ?? "", for: field.name) }
        return CacheEntry(url: head.url, partition: head.partition, statusCode: head.statusCode, headerFields: fields,
                          body: Data(bytes[offset..<content]),
                          requestTime: Date(timeIntervalSince1970: head.requestTime),
                          responseTime: Date(timeIntervalSince1970: head.responseTime),
                          varied: Dictionary(head.varied.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first }))
    }

    private static func append(_ value: UInt64, to data: inout Data) {
        for shift in stride(from: 56, through: 0, by: -8) { data.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    /// The 8-byte length at `offset` (which moves past it), when it and what it counts end before `end`.
    private static func length(in bytes: [UInt8], at offset: inout Int, before end: Int) -> Int? {
        guard offset + 8 <= end else { return nil }
        let value = bytes[offset..<(offset + 8)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        offset += 8
        guard value <= UInt64(end - offset) else { return nil }
        return Int(value)
    }
}

#if OpenAPI
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
import OpenAPIRuntime
import SwiftApiDsl

// The conversions between swift-http-types' values and the library's, each keeping the fields'
// order, repetitions and the case of their names.

extension HeaderFields {
    /// Replaces every field named in `fields` by the fields given, in their order: the generated
    /// code's fields win over those the client's modifiers set under the same names.
    mutating func replace(with fields: HTTPFields) {
        for name in Set(fields.map(\.name)) { set(nil, for: name.rawName) }
        for field in fields { append(field.value, for: field.name.rawName) }
    }
}

extension HTTPResponse {
    /// The head of `response`: its status and header fields, in order.
    init(_ response: Response<ResponseBody>) {
        var fields = HTTPFields()
        for field in response.headerFields {
            guard let name = HTTPField.Name(field.name) else { continue }
            fields.append(HTTPField(name: name, value: field.value))
        }
        self.init(status: .init(code: response.statusCode), headerFields: fields)
    }
}

extension HTTPBody {
    /// The body of `response` as it arrives, or `nil` for an answer that has none (to `HEAD`,
    /// `204`, `304`). Its length is the `Content-Length` when that is what arrives (no
    /// `Content-Encoding`, which engines decode).
    convenience init?(_ response: Response<ResponseBody>, method: HTTPRequest.Method) {
        guard method != .head, response.statusCode != 204, response.statusCode != 304 else { return nil }
        let announced = response.headerFields.expectedBodyLength
        self.init(ByteChunks(body: response.body), length: announced.map { .known($0) } ?? .unknown, iterationBehavior: .single)
    }
}

/// A response body as `HTTPBody`'s chunks.
struct ByteChunks: AsyncSequence, Sendable {
    typealias Element = HTTPBody.ByteChunk
    let body: ResponseBody

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: ResponseBody.Iterator
        mutating func next() async throws -> HTTPBody.ByteChunk? {
            try await base.next().map { ArraySlice($0) }
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: body.makeAsyncIterator()) }
}
#endif

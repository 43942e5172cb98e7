#if OpenAPI
import Foundation
import HTTPTypes
import OpenAPIRuntime
import SwiftApiDsl

extension HTTPBody {
    /// The largest body of known length that is taken into memory when it can be read again:
    /// the generated code's JSON, forms and small uploads, already in memory. 1 MiB.
    static let largestBodyInMemory: Int64 = 1 << 20

    /// How the library sends this body: a body of known length up to ``largestBodyInMemory``
    /// that can be read again is read now, into memory; any other is streamed as it is read,
    /// with its length when known, and sent at most once when it can be read once.
    func requestBody() async throws -> TransportBody {
        if iterationBehavior == .multiple, case .known(let length) = length, length <= Self.largestBodyInMemory {
            return .data(try await Data(collecting: self, upTo: Int(length)))
        }
        let announced: Int64? = if case .known(let length) = length { length } else { nil }
        return .streamed(StreamedBody(length: announced, repeatable: iterationBehavior == .multiple) {
            ResponseBody(DataChunks(body: self))
        })
    }

    /// A request body as the library takes it.
    enum TransportBody: Sendable {
        case data(Data)
        case streamed(StreamedBody)
    }
}

/// An `HTTPBody`'s chunks as `Data`, for the library's `ResponseBody`.
struct DataChunks: AsyncSequence, Sendable {
    typealias Element = Data
    let body: HTTPBody

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: HTTPBody.AsyncIterator
        mutating func next() async throws -> Data? {
            try await base.next().map { Data($0) }
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: body.makeAsyncIterator()) }
}
#endif

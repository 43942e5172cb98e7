@testable import SwiftApiDsl
@testable import SwiftApiDslCache

// What the interleaving tests wait for before they let the other side go on: read from each type's
// own state here, in the tests, so that no production type carries a property only tests call.

extension Resource {
    /// How many callers wait for the load in flight.
    var waiting: Int { storage.withLock { $0.waiters.count } }
}

extension CredentialRefresher {
    /// How many requests wait for the refresh in flight.
    var waiting: Int { state.withLock { $0.waiters.count } }
}

extension ResponseChunkQueue {
    /// Whether the reader waits for the next chunk.
    var isReaderWaiting: Bool { state.withLock { $0.reader != nil } }
}

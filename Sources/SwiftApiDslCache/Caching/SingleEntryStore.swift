import Foundation
import SwiftApiDsl

/// One entry in memory, whatever its size: the private store of a ``Resource`` whose client has
/// no ``HTTPCache``, so that its reloads are conditional requests made by the cache's rules.
/// The body is in memory anyway, as the resource's value is; storing another URL or
/// credentials replaces it.
final class SingleEntryStore: CacheStore {
    private let stored = Locked<CacheEntry?>(nil)

    var limit: Int { .max }
    var entryLimit: Int { .max }
    var isOneCallers: Bool { true }

    func entry(url: String, partition: String) -> CacheEntry? {
        stored.withLock { $0?.url == url && $0?.partition == partition ? $0 : nil }
    }

    func store(_ entry: CacheEntry) {
        stored.withLock { $0 = entry }
    }

    func removeEntries(url: String) {
        stored.withLock { if $0?.url == url { $0 = nil } }
    }

    func removeAll() {
        stored.withLock { $0 = nil }
    }
}

import Foundation
import SwiftApiDsl

/// Entries in memory, up to `limit` bytes in all (bodies, header fields and keys); past it, the
/// entries used least recently go first. Lost when the process ends.
final class MemoryCacheStore: CacheStore {
    private struct State {
        var entries: [String: [String: (entry: CacheEntry, lastUse: UInt64)]] = [:]
        var size = 0
        var clock: UInt64 = 0
    }

    let limit: Int
    let entryLimit: Int
    private let state = Locked(State())

    init(limit: Int, entryLimit: Int? = nil) {
        self.limit = max(0, limit)
        self.entryLimit = min(self.limit, max(0, entryLimit ?? limit))
    }

    func entry(url: String, partition: String) -> CacheEntry? {
        state.withLock { state in
            guard let found = state.entries[url]?[partition] else { return nil }
            state.clock += 1
            state.entries[url]?[partition]?.lastUse = state.clock
            return found.entry
        }
    }

    func store(_ entry: CacheEntry) {
        let size = entry.size
        state.withLock { state in
            Self.remove(url: entry.url, partition: entry.partition, from: &state)
            guard size <= entryLimit else { return }
            state.clock += 1
            state.entries[entry.url, default: [:]][entry.partition] = (entry, state.clock)
            state.size += size
            while state.size > limit, let oldest = Self.leastRecentlyUsed(in: state) {
                Self.remove(url: oldest.url, partition: oldest.partition, from: &state)
            }
        }
    }

    func removeEntries(url: String) {
        state.withLock { state in
            for partition in state.entries[url]?.keys.map({ $0 }) ?? [] {
                Self.remove(url: url, partition: partition, from: &state)
            }
        }
    }

    func removeAll() {
        state.withLock { $0 = State() }
    }

    /// The total size of the entries, in bytes.
    var size: Int { state.withLock { $0.size } }

    private static func remove(url: String, partition: String, from state: inout State) {
        guard let old = state.entries[url]?.removeValue(forKey: partition) else { return }
        state.size -= old.entry.size
        if state.entries[url]?.isEmpty == true { state.entries[url] = nil }
    }

    /// A linear search: evictions are rare next to lookups, which stay a dictionary read.
    private static func leastRecentlyUsed(in state: State) -> (url: String, partition: String)? {
        var oldest: (url: String, partition: String, lastUse: UInt64)?
        for (url, partitions) in state.entries {
            for (partition, stored) in partitions where stored.lastUse < oldest?.lastUse ?? .max {
                oldest = (url, partition, stored.lastUse)
            }
        }
        return oldest.map { ($0.url, $0.partition) }
    }
}

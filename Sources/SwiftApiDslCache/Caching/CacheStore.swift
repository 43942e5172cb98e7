import Foundation
import SwiftApiDsl

/// Where an ``HTTPCache`` keeps its entries: in memory (``MemoryCacheStore``) or in a folder
/// (``DirectoryCacheStore``). An entry is found by its URL and the digest of the credentials
/// its request carried; a store holds at most one entry for each such pair, and keeps its
/// total size under a limit by dropping the entries used least recently.
protocol CacheStore: Sendable {
    /// The entry stored for `url` and `partition`, or `nil`; reading one counts as using it.
    func entry(url: String, partition: String) -> CacheEntry?
    /// Stores `entry` in place of the one with the same URL and partition; an entry larger
    /// than the entry limit is not stored (and the one it would replace is removed).
    func store(_ entry: CacheEntry)
    /// Removes the entries of `url`, whatever their partition.
    func removeEntries(url: String)
    /// Removes every entry.
    func removeAll()
    /// The largest total size, in bytes.
    var limit: Int { get }
    /// The largest single entry, in bytes: a larger response is neither collected nor stored.
    var entryLimit: Int { get }
    /// Whether the store holds the answers of one caller only (a resource's own), so that an
    /// answer to a request with `Authorization` may be kept without the response saying so.
    var isOneCallers: Bool { get }
}

extension CacheStore {
    var isOneCallers: Bool { false }
}

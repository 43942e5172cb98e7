import Foundation
import SwiftApiDsl

/// Entries in a folder, kept across launches, up to `limit` bytes of files; past it, the
/// entries used least recently (by their files' modification dates) go first.
///
/// Each entry is one file, `<SHA-256 of the URL>/<SHA-256 of the credentials, or "anonymous">`,
/// written whole to a temporary file beside them and renamed into place, so a reader never sees
/// half of one. A file that is truncated, altered or unreadable is a miss and is removed
/// (``CacheEntryFile`` checks its lengths and its digest). A folder that cannot be made or
/// written leaves the cache empty; it never fails a request.
///
/// The lock guards only the index of sizes and dates: every read, write, rename and removal of
/// a file happens outside it, so a slow disk holds up only the request that uses that file.
final class DirectoryCacheStore: CacheStore {
    private struct Index {
        /// Each entry file's size, last use and the write that made it (to tell a file replaced
        /// meanwhile from the one that was read), from the folder at the first access.
        var files: [String: (size: Int, lastUse: Date, write: UUID)] = [:]
        var size = 0
        var loaded = false
    }

    let limit: Int
    let entryLimit: Int
    let directory: URL
    private let index = Locked(Index())
    private var temporary: URL { directory.appendingPathComponent(".tmp", isDirectory: true) }
    /// The prefix of this store's temporary files: the others in the folder were left by a
    /// process that ended during a write.
    private let writer = UUID().uuidString
    /// Reads an entry's file (a test's own, to hold one read up).
    private let readFile: @Sendable (URL) -> Data?

    init(directory: URL, limit: Int, entryLimit: Int? = nil,
         readFile: @escaping @Sendable (URL) -> Data? = { try? Data(contentsOf: $0) }) {
        self.directory = directory
        self.limit = max(0, limit)
        self.entryLimit = min(self.limit, max(0, entryLimit ?? limit))
        self.readFile = readFile
    }

    func entry(url: String, partition: String) -> CacheEntry? {
        let file = self.file(url: url, partition: partition)
        guard let write = indexed({ $0.files[file.path]?.write }) else { return nil }
        guard let data = readFile(file), let entry = CacheEntryFile.decode(data), entry.url == url, entry.partition == partition else {
            let current = index.withLock { index in index.files[file.path]?.write == write ? Self.forget(file.path, in: &index) : false }
            if current { try? FileManager.default.removeItem(at: file) }
            return nil
        }
        let now = Date()
        index.withLock { index in if index.files[file.path]?.write == write { index.files[file.path]?.lastUse = now } }
        try? FileManager.default.setAttributes([.modificationDate: now], ofItemAtPath: file.path)
        return entry
    }

    func store(_ entry: CacheEntry) {
        let data = CacheEntryFile.encode(entry)
        let file = self.file(url: entry.url, partition: entry.partition)
        indexed { _ in }
        guard data.count <= entryLimit, write(data, to: file) else {
            // The entry it would have replaced is out of date all the same.
            if index.withLock({ Self.forget(file.path, in: &$0) }) { try? FileManager.default.removeItem(at: file) }
            return
        }
        let evicted = index.withLock { index -> [String] in
            _ = Self.forget(file.path, in: &index)
            index.files[file.path] = (data.count, Date(), UUID())
            index.size += data.count
            var evicted: [String] = []
            while index.size > limit, let oldest = index.files.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                _ = Self.forget(oldest.key, in: &index)
                evicted.append(oldest.key)
            }
            return evicted
        }
        for path in evicted { try? FileManager.default.removeItem(atPath: path) }
    }

    func removeEntries(url: String) {
        let folder = directory.appendingPathComponent(SHA256.hex(Data(url.utf8)), isDirectory: true)
        indexed { index in
            for path in index.files.keys where path.hasPrefix(folder.path + "/") { _ = Self.forget(path, in: &index) }
        }
        try? FileManager.default.removeItem(at: folder)
    }

    func removeAll() {
        index.withLock { $0 = Index(loaded: true) }
        for item in (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? [] {
            try? FileManager.default.removeItem(at: item)
        }
    }

    /// The total size of the entry files, in bytes.
    var size: Int { indexed { $0.size } }

    /// The file of the entry for `url` and `partition`.
    func file(url: String, partition: String) -> URL {
        directory.appendingPathComponent(SHA256.hex(Data(url.utf8)), isDirectory: true)
            .appendingPathComponent(partition.isEmpty ? "anonymous" : partition)
    }

    /// Runs `body` on the index under the lock, once the folder has been read: the first access
    /// reads it outside the lock (two first accesses may both read it; one index is kept).
    @discardableResult
    private func indexed<T>(_ body: (inout Index) -> T) -> T {
        if !index.withLock({ $0.loaded }) {
            let scanned = scan()
            index.withLock { index in if !index.loaded { index = scanned } }
        }
        return index.withLock(body)
    }

    /// The folder's entry files, with their sizes and dates; temporary files a write left
    /// behind (the process ended during it) are removed.
    private func scan() -> Index {
        let manager = FileManager.default
        for item in (try? manager.contentsOfDirectory(atPath: temporary.path)) ?? [] where !item.hasPrefix(writer) {
            try? manager.removeItem(at: temporary.appendingPathComponent(item))
        }
        var scanned = Index(loaded: true)
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey, .isRegularFileKey]
        for folder in (try? manager.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? [] {
            for file in (try? manager.contentsOfDirectory(at: folder, includingPropertiesForKeys: keys)) ?? [] {
                guard let values = try? file.resourceValues(forKeys: Set(keys)), values.isRegularFile == true else { continue }
                let size = values.fileSize ?? 0
                scanned.files[file.path] = (size, values.contentModificationDate ?? .distantPast, UUID())
                scanned.size += size
            }
        }
        return scanned
    }

    /// Writes `data` to a temporary file and renames it onto `file`; `false` when it could not.
    private func write(_ data: Data, to file: URL) -> Bool {
        let manager = FileManager.default
        let partial = temporary.appendingPathComponent(writer + "-" + UUID().uuidString)
        do {
            try manager.createDirectory(at: temporary, withIntermediateDirectories: true)
            try manager.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: partial)
            // rename(2) replaces the destination in one step on every POSIX system.
            if rename(partial.path, file.path) == 0 { return true }
        } catch {}
        try? manager.removeItem(at: partial)
        return false
    }

    /// Removes `path` from the index (the caller removes the file, outside the lock); whether it was there.
    private static func forget(_ path: String, in index: inout Index) -> Bool {
        guard let old = index.files.removeValue(forKey: path) else { return false }
        index.size -= old.size
        return true
    }
}

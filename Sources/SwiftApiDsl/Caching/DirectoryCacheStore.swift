import Foundation

/// Entries in a folder, kept across launches, up to `limit` bytes of files; past it, the
/// entries used least recently (by their files' modification dates) go first.
///
/// Each entry is one file, `<SHA-256 of the URL>/<SHA-256 of the credentials, or "anonymous">`,
/// written whole to a temporary file beside them and renamed into place, so a reader never sees
/// half of one. A file that is truncated, altered or unreadable is a miss and is removed
/// (``CacheEntryFile`` checks its lengths and its digest). A folder that cannot be made or
/// written leaves the cache empty; it never fails a request.
final class DirectoryCacheStore: CacheStore {
    private struct Index {
        /// Each entry file's size and last use, read from the folder at the first access.
        var files: [String: (size: Int, lastUse: Date)] = [:]
        var size = 0
        var loaded = false
    }

    let limit: Int
    let directory: URL
    private let index = Locked(Index())
    private var temporary: URL { directory.appendingPathComponent(".tmp", isDirectory: true) }

    init(directory: URL, limit: Int) {
        self.directory = directory
        self.limit = max(0, limit)
    }

    func entry(url: String, partition: String) -> CacheEntry? {
        index.withLock { index in
            load(&index)
            let file = self.file(url: url, partition: partition)
            guard index.files[file.path] != nil else { return nil }
            guard let data = try? Data(contentsOf: file), let entry = CacheEntryFile.decode(data),
                  entry.url == url, entry.partition == partition
            else {
                remove(file, from: &index)
                return nil
            }
            let now = Date()
            index.files[file.path]?.lastUse = now
            try? FileManager.default.setAttributes([.modificationDate: now], ofItemAtPath: file.path)
            return entry
        }
    }

    func store(_ entry: CacheEntry) {
        let data = CacheEntryFile.encode(entry)
        index.withLock { index in
            load(&index)
            let file = self.file(url: entry.url, partition: entry.partition)
            remove(file, from: &index)
            guard data.count <= limit, write(data, to: file) else { return }
            index.files[file.path] = (data.count, Date())
            index.size += data.count
            while index.size > limit, let oldest = index.files.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                remove(URL(fileURLWithPath: oldest.key), from: &index)
            }
        }
    }

    func removeEntries(url: String) {
        index.withLock { index in
            load(&index)
            let folder = directory.appendingPathComponent(SHA256.hex(Data(url.utf8)), isDirectory: true)
            for path in index.files.keys where path.hasPrefix(folder.path + "/") {
                remove(URL(fileURLWithPath: path), from: &index)
            }
            try? FileManager.default.removeItem(at: folder)
        }
    }

    func removeAll() {
        index.withLock { index in
            for item in (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? [] {
                try? FileManager.default.removeItem(at: item)
            }
            index = Index(loaded: true)
        }
    }

    /// The total size of the entry files, in bytes.
    var size: Int { index.withLock { index in load(&index); return index.size } }

    /// The file of the entry for `url` and `partition`.
    func file(url: String, partition: String) -> URL {
        directory.appendingPathComponent(SHA256.hex(Data(url.utf8)), isDirectory: true)
            .appendingPathComponent(partition.isEmpty ? "anonymous" : partition)
    }

    /// Reads the folder once: the entry files' sizes and dates; temporary files a write left
    /// behind (the process ended during it) are removed.
    private func load(_ index: inout Index) {
        guard !index.loaded else { return }
        index.loaded = true
        let manager = FileManager.default
        try? manager.removeItem(at: temporary)
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey, .isRegularFileKey]
        for folder in (try? manager.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? [] {
            for file in (try? manager.contentsOfDirectory(at: folder, includingPropertiesForKeys: keys)) ?? [] {
                guard let values = try? file.resourceValues(forKeys: Set(keys)), values.isRegularFile == true else { continue }
                let size = values.fileSize ?? 0
                index.files[file.path] = (size, values.contentModificationDate ?? .distantPast)
                index.size += size
            }
        }
    }

    /// Writes `data` to a temporary file and renames it onto `file`; `false` when it could not.
    private func write(_ data: Data, to file: URL) -> Bool {
        let manager = FileManager.default
        let partial = temporary.appendingPathComponent(UUID().uuidString)
        do {
            try manager.createDirectory(at: temporary, withIntermediateDirectories: true)
            try manager.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: partial)
        } catch {
            try? manager.removeItem(at: partial)
            return false
        }
        // rename(2) replaces the destination in one step on every POSIX system.
        guard rename(partial.path, file.path) == 0 else {
            try? manager.removeItem(at: partial)
            return false
        }
        return true
    }

    private func remove(_ file: URL, from index: inout Index) {
        try? FileManager.default.removeItem(at: file)
        if let old = index.files.removeValue(forKey: file.path) { index.size -= old.size }
    }
}

import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import SwiftApiDsl
@testable import SwiftApiDslCache

/// The two stores: their size limits, what they drop first, and the folder's files.
@Suite struct CacheStoreTests {
    private func entry(_ url: String, body: Int = 100, partition: String = "") -> CacheEntry {
        CacheEntry(url: url, partition: partition, statusCode: 200,
                   headerFields: ["Cache-Control": "max-age=60", "ETag": "\"\(url.count)\""], body: Data(repeating: 7, count: body),
                   requestTime: Date(timeIntervalSince1970: 1_700_000_000), responseTime: Date(timeIntervalSince1970: 1_700_000_001),
                   varied: ["accept": "application/json", "accept-language": nil])
    }

    private func scratchFolder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("cache-tests-\(UUID().uuidString)", isDirectory: true)
    }

    @Test func theMemoryStoreDropsTheLeastRecentlyUsedEntryPastItsLimit() {
        let size = entry("https://a.example/1").size
        let store = MemoryCacheStore(limit: size * 2)
        store.store(entry("https://a.example/1"))
        store.store(entry("https://a.example/2"))
        _ = store.entry(url: "https://a.example/1", partition: "")  // 1 is now used more recently than 2
        store.store(entry("https://a.example/3"))
        #expect(store.entry(url: "https://a.example/1", partition: "") != nil)
        #expect(store.entry(url: "https://a.example/2", partition: "") == nil)
        #expect(store.entry(url: "https://a.example/3", partition: "") != nil)
        #expect(store.size == size * 2)
    }

    @Test func anEntryLargerThanTheLimitIsNotStoredAndReplacingOneCountsItOnce() {
        let store = MemoryCacheStore(limit: 1_000)
        store.store(entry("https://a.example/big", body: 2_000))
        #expect(store.entry(url: "https://a.example/big", partition: "") == nil)
        store.store(entry("https://a.example/1"))
        store.store(entry("https://a.example/1"))
        #expect(store.size == entry("https://a.example/1").size)
    }

    @Test func removingAURLRemovesItsEntriesForEveryPartition() {
        let store = MemoryCacheStore(limit: 1 << 20)
        store.store(entry("https://a.example/1", partition: "alice"))
        store.store(entry("https://a.example/1", partition: "bob"))
        store.store(entry("https://a.example/2", partition: "alice"))
        store.removeEntries(url: "https://a.example/1")
        #expect(store.entry(url: "https://a.example/1", partition: "alice") == nil)
        #expect(store.entry(url: "https://a.example/1", partition: "bob") == nil)
        #expect(store.entry(url: "https://a.example/2", partition: "alice") != nil)
        #expect(store.size == entry("https://a.example/2", partition: "alice").size)
    }

    @Test func theDirectoryStoreKeepsItsEntriesAcrossARestart() throws {
        let folder = scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stored = entry("https://a.example/1", partition: SHA256.hex(Data("token".utf8)))
        DirectoryCacheStore(directory: folder, limit: 1 << 20).store(stored)
        let restarted = DirectoryCacheStore(directory: folder, limit: 1 << 20)
        #expect(restarted.entry(url: stored.url, partition: stored.partition) == stored)
        // Neither the URL nor the credentials' digest is written as a name: both are hashed.
        let file = restarted.file(url: stored.url, partition: stored.partition)
        #expect(file.deletingLastPathComponent().lastPathComponent == SHA256.hex(Data(stored.url.utf8)))
    }

    @Test func aTruncatedOrAlteredFileIsAMissAndIsRemoved() throws {
        let folder = scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = DirectoryCacheStore(directory: folder, limit: 1 << 20)
        for damage in [{ (data: Data) in data.prefix(data.count - 10) }, { data in
            var altered = data
            altered[altered.count / 2] ^= 0xFF
            return altered
        }, { data in data + Data([0]) }, { _ in Data("not an entry".utf8) }] {
            store.store(entry("https://a.example/1"))
            let file = store.file(url: "https://a.example/1", partition: "")
            try damage(try Data(contentsOf: file)).write(to: file)
            let restarted = DirectoryCacheStore(directory: folder, limit: 1 << 20)
            #expect(restarted.entry(url: "https://a.example/1", partition: "") == nil)
            #expect(!FileManager.default.fileExists(atPath: file.path))
            #expect(restarted.size == 0)
        }
    }

    @Test func theDirectoryStoreRemovesTheLeastRecentlyUsedFilesPastItsLimit() throws {
        let folder = scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fileSize = CacheEntryFile.encode(entry("https://a.example/1")).count
        let store = DirectoryCacheStore(directory: folder, limit: fileSize * 2)
        store.store(entry("https://a.example/1"))
        store.store(entry("https://a.example/2"))
        // File dates have a coarse resolution on some systems: make the order explicit.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -100)],
                                              ofItemAtPath: store.file(url: "https://a.example/2", partition: "").path)
        let restarted = DirectoryCacheStore(directory: folder, limit: fileSize * 2)
        _ = restarted.entry(url: "https://a.example/1", partition: "")
        restarted.store(entry("https://a.example/3"))
        #expect(restarted.entry(url: "https://a.example/2", partition: "") == nil)
        #expect(!FileManager.default.fileExists(atPath: restarted.file(url: "https://a.example/2", partition: "").path))
        #expect(restarted.entry(url: "https://a.example/1", partition: "") != nil)
        #expect(restarted.entry(url: "https://a.example/3", partition: "") != nil)
        #expect(restarted.size == fileSize * 2)
    }

    @Test func aWriteReplacesAnEntryWholeAndAnInterruptedOneLeavesNothingBehind() throws {
        let folder = scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = DirectoryCacheStore(directory: folder, limit: 1 << 20)
        store.store(entry("https://a.example/1", body: 10))
        store.store(entry("https://a.example/1", body: 20))
        #expect(store.entry(url: "https://a.example/1", partition: "")?.body.count == 20)
        // Writes go through a temporary file that is renamed into place: none is left over.
        let temporary = folder.appendingPathComponent(".tmp")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
        // A process that ended mid-write leaves half a file there: it is no entry, and the next
        // store to open the folder removes it.
        try Data("half an ent".utf8).write(to: temporary.appendingPathComponent("interrupted"))
        let restarted = DirectoryCacheStore(directory: folder, limit: 1 << 20)
        #expect(restarted.entry(url: "https://a.example/1", partition: "")?.body.count == 20)
        #expect(!FileManager.default.fileExists(atPath: temporary.appendingPathComponent("interrupted").path))
        #expect(restarted.size == CacheEntryFile.encode(entry("https://a.example/1", body: 20)).count)
    }

    @Test func aFolderThatCannotBeWrittenLeavesTheCacheEmptyAndRequestsWork() async throws {
        let blocker = scratchFolder()
        try Data("a file, not a folder".utf8).write(to: blocker)
        defer { try? FileManager.default.removeItem(at: blocker) }
        let server = CountingServer(headers: ["Cache-Control": "max-age=60"])
        let client = ApiClient(transport: server, baseUrl: exampleBase).cache(.directory(blocker.appendingPathComponent("inside")))
        #expect(try await client.get("doc").perform().statusCode == 200)
        #expect(try await client.get("doc").perform().source == .network)
        #expect(server.requests.count == 2)
    }

    @Test func aDirectoryCacheAnswersASecondClientAfterARestart() async throws {
        let folder = scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = CountingServer(headers: ["Cache-Control": "max-age=600", "ETag": "\"d\""])
        _ = try await ApiClient(transport: server, baseUrl: exampleBase).cache(.directory(folder)).get("doc").perform()
        let second = try await ApiClient(transport: server, baseUrl: exampleBase).cache(.directory(folder)).get("doc").perform()
        #expect(second.source == .stored)
        #expect(String(decoding: second.body, as: UTF8.self) == "payload")
        #expect(server.requests.count == 1)
    }
    /// The folder is read and written outside the store's lock: a read held up on one entry's
    /// file does not hold up a lookup of another entry.
    @Test func aReadHeldUpOnOneFileDoesNotHoldUpAnotherLookup() {
        let folder = scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let reading = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let store = DirectoryCacheStore(directory: folder, limit: 1 << 20) { file in
            if file.lastPathComponent == "anonymous", file.path.contains(SHA256.hex(Data("https://a.example/slow".utf8))) {
                reading.signal()
                release.wait()
            }
            return try? Data(contentsOf: file)
        }
        store.store(entry("https://a.example/slow"))
        store.store(entry("https://a.example/free"))
        let slowDone = DispatchSemaphore(value: 0)
        let freeDone = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = store.entry(url: "https://a.example/slow", partition: "")
            slowDone.signal()
        }
        reading.wait()   // the slow read has begun
        Thread.detachNewThread {
            _ = store.entry(url: "https://a.example/free", partition: "")
            freeDone.signal()
        }
        let freeFinished = freeDone.wait(timeout: .now() + 5) == .success
        release.signal()
        #expect(slowDone.wait(timeout: .now() + 5) == .success)
        if !freeFinished { _ = freeDone.wait(timeout: .now() + 5) }
        #expect(freeFinished)
        #expect(store.entry(url: "https://a.example/free", partition: "")?.body.count == 100)
    }

    @Test func bothStoresRefuseAnEntryLargerThanTheirEntryLimit() {
        let folder = scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stores: [any CacheStore] = [MemoryCacheStore(limit: 1 << 20, entryLimit: 1_000),
                                        DirectoryCacheStore(directory: folder, limit: 1 << 20, entryLimit: 1_000)]
        for store in stores {
            store.store(entry("https://a.example/small", body: 100))
            store.store(entry("https://a.example/large", body: 2_000))
            #expect(store.entry(url: "https://a.example/small", partition: "")?.body.count == 100)
            #expect(store.entry(url: "https://a.example/large", partition: "") == nil)
            #expect(store.entryLimit == 1_000)
        }
    }
}

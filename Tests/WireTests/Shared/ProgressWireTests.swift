#if WIRE_SUITES
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// Upload and download progress over 50 MB bodies, on every engine: monotonic, throttled, and
/// ending exactly at the total.
@Suite struct ProgressWireTests {
    static let size = 50_000_000

    /// Collects the updates a transfer reports.
    final class Updates: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [TransferProgress] = []
        func add(_ item: TransferProgress) { lock.lock(); items.append(item); lock.unlock() }
        var all: [TransferProgress] { lock.lock(); defer { lock.unlock() }; return items }
    }

    /// Checks the rules every series of updates follows, for a transfer of `size` bytes.
    private func expectWellFormed(_ updates: [TransferProgress], size: Int64) {
        // At least one while it ran, and the last; a small body may arrive in one chunk, whose
        // first update is already the last.
        #expect(updates.count >= (size > 1_000_000 ? 2 : 1))
        #expect(updates.last == TransferProgress(completedBytes: size, totalBytes: size))
        #expect(zip(updates, updates.dropFirst()).allSatisfy { $0.completedBytes < $1.completedBytes })
        #expect(updates.allSatisfy { $0.completedBytes <= size && ($0.totalBytes ?? size) == size })
    }

    @Test func fileUploadReportsItsProgress() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("big.bin")
        try Data(repeating: 0x2A, count: Self.size).write(to: file)
        let updates = Updates()
        struct Received: Decodable { let received: Int }

        let (received, elapsed): (Received, TimeInterval) = try await measure {
            try await TestServer.client().post("sink").uploadFile(file).uploadProgress { updates.add($0) }.perform()
        }

        #expect(received.received == Self.size)
        expectWellFormed(updates.all, size: Int64(Self.size))
        // At most 20 a second, plus the last one.
        #expect(Double(updates.all.count) <= elapsed * 20 + 2)
    }

    @Test func multipartUploadReportsTheWholeForm() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("part.bin")
        try Data(repeating: 0x2A, count: 5_000_000).write(to: file)
        let updates = Updates()
        struct Received: Decodable { let received: Int }

        let received: Received = try await TestServer.client().post("sink")
            .multipartFormData {
                TextField(name: "title", value: "five megabytes")
                FileField(name: "data", fileURL: file, mimeType: "application/octet-stream")
            }
            .uploadProgress { updates.add($0) }
            .perform()

        #expect(received.received > 5_000_000)
        expectWellFormed(updates.all, size: Int64(received.received))
    }

    @Test func downloadReportsItsProgress() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("blob.bin")
        let updates = Updates()

        let (_, elapsed) = try await measure {
            try await TestServer.client().get("blob/\(Self.size)").downloadProgress { updates.add($0) }
                .download(destination: destination)
        }

        #expect(try FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? Int == Self.size)
        expectWellFormed(updates.all, size: Int64(Self.size))
        #expect(Double(updates.all.count) <= elapsed * 20 + 2)
    }

    @Test func performReportsDownloadProgressToo() async throws {
        let updates = Updates()
        let data = try await TestServer.client().get("blob/300000").downloadProgress { updates.add($0) }.perform().body
        #expect(data.count == 300_000)
        expectWellFormed(updates.all, size: 300_000)
    }

    @Test func streamReportsWhatTheCallerRead() async throws {
        let updates = Updates()
        let response = try await TestServer.client().get("blob/300000").downloadProgress { updates.add($0) }.stream()
        var read = 0
        for try await chunk in response.body {
            read += chunk.count
            // Progress counts what the caller took, never more.
            #expect((updates.all.last?.completedBytes ?? 0) <= Int64(read))
        }
        #expect(read == 300_000)
        expectWellFormed(updates.all, size: 300_000)
    }
}
#endif

import Foundation
import Testing
@testable import SwiftApiDsl

/// The queue between an engine's callbacks and the reader of a body.
@Suite struct ResponseChunkQueueTests {
    private func readAll(_ body: ResponseBody) async throws -> [String] {
        var chunks: [String] = []
        for try await chunk in body { chunks.append(String(decoding: chunk, as: UTF8.self)) }
        return chunks
    }

    @Test func chunksQueuedBeforeReadingComeInOrderThenTheEnd() async throws {
        let queue = ResponseChunkQueue()
        for text in ["a", "", "bc", "d"] { queue.push(Data(text.utf8)) }
        queue.finish()
        queue.push(Data("late".utf8)) // after the end: dropped
        #expect(try await readAll(queue.body) == ["a", "bc", "d"])
    }

    @Test func chunksPushedWhileTheReaderRunsComeInOrder() async throws {
        // The reader and the pushes interleave (the yields let the reader run, often waiting).
        let queue = ResponseChunkQueue()
        let reader = Task { try await readAll(queue.body) }
        for index in 0..<100 {
            queue.push(Data("\(index)".utf8))
            if index % 10 == 0 { await Task.yield() }
        }
        queue.finish()
        #expect(try await reader.value == (0..<100).map(String.init))
    }

    @Test func anErrorComesAfterTheChunksAlreadyQueued() async throws {
        let queue = ResponseChunkQueue()
        queue.push(Data("a".utf8))
        queue.finish(throwing: URLError(.networkConnectionLost))
        queue.finish() // only the first end counts
        var iterator = queue.body.makeAsyncIterator()
        #expect(try await iterator.next() == Data("a".utf8))
        let error = await #expect(throws: URLError.self) { try await iterator.next() }
        #expect(error?.code == .networkConnectionLost)
    }

    @Test func aFullQueueSaysSoAndCallsBackOnceDrained() async throws {
        let queue = ResponseChunkQueue(bufferLimit: 4)
        let resumed = Locked(0)
        #expect(queue.push(Data("ab".utf8)) == true)
        #expect(queue.push(Data("cd".utf8)) == false)  // 4 bytes queued: at the limit
        queue.whenDrained { resumed.withLock { $0 += 1 } }
        #expect(resumed.withLock { $0 } == 0)
        var iterator = queue.body.makeAsyncIterator()
        #expect(try await iterator.next() == Data("ab".utf8))  // 2 bytes left: below the limit
        #expect(resumed.withLock { $0 } == 1)
        queue.whenDrained { resumed.withLock { $0 += 1 } }      // not full: called at once
        #expect(resumed.withLock { $0 } == 2)
    }

    @Test func theEndLetsAPausedEngineGo() {
        let queue = ResponseChunkQueue(bufferLimit: 1)
        let resumed = Locked(false)
        #expect(queue.push(Data("abc".utf8)) == false)
        queue.whenDrained { resumed.withLock { $0 = true } }
        queue.finish(throwing: CancellationError())
        #expect(resumed.withLock { $0 })
    }
}

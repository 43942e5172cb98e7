import Foundation
import Testing
@testable import SwiftApiDsl

/// The response chunk queue under each ordering of its engine's calls (push, finish,
/// whenDrained) and its reader's, each forced by waiting until the reader is parked; then many
/// random orderings at once, with the engine on a thread of its own. `Scripts/tsan` runs it.
@Suite struct ChunkQueueInterleavingTests {
    private func text(_ chunk: Data?) -> String? {
        chunk.map { String(decoding: $0, as: UTF8.self) }
    }

    /// A task reading one chunk, once it waits inside the queue.
    private func parkedReader(on queue: ResponseChunkQueue) async throws -> Task<String?, any Error> {
        let reader = Task { text(try await queue.next()) }
        try await waitUntil("the reader waits for a chunk") { queue.isReaderWaiting }
        return reader
    }

    @Test func aPushToAWaitingReaderIsHandedOverAndNeverQueued() async throws {
        let queue = ResponseChunkQueue(bufferLimit: 4)
        let reader = try await parkedReader(on: queue)
        // Ten bytes with a four-byte limit: the reader takes them, so the engine may go on.
        #expect(queue.push(Data("0123456789".utf8)) == true)
        #expect(try await reader.value == "0123456789")
        #expect(queue.isReaderWaiting == false)
    }

    @Test func finishWhileTheReaderWaitsEndsItsReadWithTheEnd() async throws {
        let queue = ResponseChunkQueue()
        let reader = try await parkedReader(on: queue)
        queue.finish()
        #expect(try await reader.value == nil)
        #expect(text(try await queue.next()) == nil)   // the end stays the end
    }

    @Test func anErrorWhileTheReaderWaitsIsThrownToIt() async throws {
        let queue = ResponseChunkQueue()
        let reader = try await parkedReader(on: queue)
        queue.finish(throwing: URLError(.networkConnectionLost))
        let error = await #expect(throws: URLError.self) { try await reader.value }
        #expect(error?.code == .networkConnectionLost)
    }

    @Test func anErrorAfterChunksQueuedBehindAWaitingReaderComesAfterThemAndLatePushesAreDropped() async throws {
        let queue = ResponseChunkQueue()
        let reader = try await parkedReader(on: queue)
        queue.push(Data("a".utf8))                     // handed to the waiting reader
        queue.push(Data("b".utf8))                     // queued: nobody waits
        queue.push(Data("c".utf8))
        queue.finish(throwing: URLError(.timedOut))
        queue.push(Data("late".utf8))
        queue.finish()                                  // only the first end counts
        #expect(try await reader.value == "a")
        #expect(text(try await queue.next()) == "b")
        #expect(text(try await queue.next()) == "c")
        let error = await #expect(throws: URLError.self) { try await queue.next() }
        #expect(error?.code == .timedOut)
    }

    @Test func backPressureIsReleasedByTheReadThatTakesTheQueueBelowItsLimitOnce() async throws {
        let queue = ResponseChunkQueue(bufferLimit: 4)
        let resumed = Locked(0)
        #expect(queue.push(Data("ab".utf8)) == true)
        #expect(queue.push(Data("cd".utf8)) == false)
        #expect(queue.push(Data("ef".utf8)) == false)  // a paused engine's last chunk still counts
        queue.whenDrained { resumed.withLock { $0 += 1 } }
        #expect(text(try await queue.next()) == "ab")   // 4 bytes left: still at the limit
        #expect(resumed.withLock { $0 } == 0)
        #expect(text(try await queue.next()) == "cd")   // 2 bytes left: the engine may go on
        #expect(resumed.withLock { $0 } == 1)
        #expect(text(try await queue.next()) == "ef")
        queue.finish()
        #expect(text(try await queue.next()) == nil)
        #expect(resumed.withLock { $0 } == 1)          // once, not at every read nor at the end
    }

    @Test func aQueueDrainedBeforeTheEngineAsksToBeResumedResumesItAtOnce() async throws {
        // The engine learns the queue is full, the reader empties it, then the engine asks to be
        // called back: the callback is not lost.
        let queue = ResponseChunkQueue(bufferLimit: 2)
        #expect(queue.push(Data("ab".utf8)) == false)
        #expect(text(try await queue.next()) == "ab")
        let resumed = Locked(0)
        queue.whenDrained { resumed.withLock { $0 += 1 } }
        #expect(resumed.withLock { $0 } == 1)
    }

    @Test func whenDrainedAfterTheEndResumesAtOnceEvenWithChunksUnread() async throws {
        let queue = ResponseChunkQueue(bufferLimit: 1)
        #expect(queue.push(Data("abc".utf8)) == false)
        queue.finish()
        let resumed = Locked(0)
        queue.whenDrained { resumed.withLock { $0 += 1 } }
        #expect(resumed.withLock { $0 } == 1)
        #expect(text(try await queue.next()) == "abc")  // what was queued is still read
        #expect(text(try await queue.next()) == nil)
    }

    @Test func anErrorLetsAPausedEngineGoWhileTheReaderStillGetsTheQueuedChunks() async throws {
        let queue = ResponseChunkQueue(bufferLimit: 2)
        let resumed = Locked(0)
        #expect(queue.push(Data("ab".utf8)) == false)
        queue.whenDrained { resumed.withLock { $0 += 1 } }
        queue.finish(throwing: CancellationError())
        #expect(resumed.withLock { $0 } == 1)
        #expect(text(try await queue.next()) == "ab")
        await #expect(throws: CancellationError.self) { try await queue.next() }
        #expect(resumed.withLock { $0 } == 1)
    }

    /// One random round: what the engine does, decided before it starts.
    private struct Round {
        let chunks: [Data]
        let bufferLimit: Int?
        let failsAtTheEnd: Bool
        /// Microseconds the engine pauses before each push, and the reader's yields before each read.
        let enginePauses: [Int]
        let readerYields: [Int]

        init(using random: inout SeededGenerator) {
            let count = Int.random(in: 1...40, using: &random)
            chunks = (0..<count).map { index in
                Data(repeating: UInt8(truncatingIfNeeded: index), count: Int.random(in: 1...64, using: &random))
            }
            bufferLimit = Bool.random(using: &random) ? nil : Int.random(in: 1...128, using: &random)
            failsAtTheEnd = Int.random(in: 0..<4, using: &random) == 0
            enginePauses = (0...count).map { _ in Int.random(in: 0..<4, using: &random) == 0 ? Int.random(in: 1...50, using: &random) : 0 }
            readerYields = (0...count).map { _ in Int.random(in: 0...2, using: &random) }
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func twoHundredRandomOrderingsOfAnEngineThreadAndAReaderTaskLoseNothing() async throws {
        let seed = SeededGenerator.runSeed
        var random = SeededGenerator(seed: seed)
        for round in 0..<200 {
            let plan = Round(using: &random)
            let replay = "round \(round) of seed \(seed) (INTERLEAVING_SEED=\(seed) replays it)"
            let queue = ResponseChunkQueue(bufferLimit: plan.bufferLimit)
            let engineDone = DispatchSemaphore(value: 0)
            let stalled = Locked(false)
            // The engine: pushes, and when the queue is full waits to be called back, as an
            // engine that can pause its socket does.
            let engine = Thread {
                for (index, chunk) in plan.chunks.enumerated() {
                    jitter(plan.enginePauses[index])
                    guard !queue.push(chunk) else { continue }
                    let drained = DispatchSemaphore(value: 0)
                    queue.whenDrained { drained.signal() }
                    if drained.wait(timeout: .now() + 10) == .timedOut {
                        stalled.withLock { $0 = true }
                        break
                    }
                }
                jitter(plan.enginePauses[plan.chunks.count])
                queue.finish(throwing: plan.failsAtTheEnd ? URLError(.networkConnectionLost) : nil)
                engineDone.signal()
            }
            engine.start()
            var received: [Data] = []
            var ending = "end"
            do {
                while true {
                    for _ in 0..<plan.readerYields[min(received.count, plan.chunks.count)] { await Task.yield() }
                    guard let chunk = try await queue.next() else { break }
                    received.append(chunk)
                }
            } catch let error as URLError {
                ending = "URLError \(error.code.rawValue)"
            }
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    engineDone.wait()
                    continuation.resume()
                }
            }
            #expect(stalled.withLock { $0 } == false, "the engine was never called back: \(replay)")
            #expect(received == plan.chunks, "\(received.count) of \(plan.chunks.count) chunks, not all in order: \(replay)")
            let expectedEnding = plan.failsAtTheEnd ? "URLError \(URLError.Code.networkConnectionLost.rawValue)" : "end"
            #expect(ending == expectedEnding, "\(replay)")
            if received != plan.chunks || ending != expectedEnding || stalled.withLock({ $0 }) { return }
        }
    }
}

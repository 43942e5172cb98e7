import Foundation
import Testing
@testable import SwiftApiDsl

/// What a value handed over through a continuation needs so that ThreadSanitizer sees it
/// ordered: run under `Scripts/tsan`, where a missing edge fails the run.
///
/// When a continuation is resumed before its task reaches the `await`, the Swift runtime takes
/// the fast path and tells ThreadSanitizer nothing; a value made by the resuming thread then
/// looks unordered with the reader's use of it. This is how `URLSessionExchange` handed a body's
/// chunk queue to the pipeline and how CI failed at random (2 runs in 30).
@Suite struct ContinuationOrderingTests {
    /// A class, so that its field lives on the heap where ThreadSanitizer watches it.
    private final class Made: @unchecked Sendable {
        var value: Int
        init(_ value: Int) { self.value = value }
    }

    @Test func continuationResumedBeforeItsAwaitIsSeenAsOrdered() async {
        for round in 0..<10 {
            let lock = Locked<Made?>(nil)
            let made: Made = await withCheckedContinuation { continuation in
                let maker = Thread {
                    let made = Made(round)
                    lock.withLock { $0 = made }
                    continuation.resume(returning: made)
                }
                maker.start()
                // Long enough for the resume to come before this closure returns (the fast path).
                Thread.sleep(forTimeInterval: 0.02)
            }
            // Without this, ThreadSanitizer reports the next line as racing with `Made(round)`.
            lock.synchronize()
            made.value += 1
            #expect(made.value == round + 1)
        }
    }

    @Test func chunksMadeOnAnEngineThreadAreReadWithoutARace() async throws {
        // An engine thread pushes while the reader is reading, waiting or about to wait, over
        // many rounds: every chunk comes once, whole and in order, and ThreadSanitizer (which
        // runs this suite) sees no race in the queue's own state.
        for _ in 0..<50 {
            let queue = ResponseChunkQueue()
            let engine = Thread {
                for index in 0..<20 {
                    queue.push(Data(repeating: UInt8(index), count: 1 + index))
                    if index % 4 == 0 { usleep(50) }
                }
                queue.finish()
            }
            var iterator = queue.body.makeAsyncIterator()
            engine.start()
            var sizes: [Int] = []
            var firstBytes: [UInt8] = []
            while let chunk = try await iterator.next() {
                sizes.append(chunk.count)
                firstBytes.append(chunk[chunk.startIndex])
            }
            #expect(sizes == Array(1...20))
            #expect(firstBytes == (0..<20).map(UInt8.init))
        }
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

#if canImport(FoundationNetworking)
/// The URLSession transport's delegate queue on Linux: it runs each callback at once, on the
/// queue of swift-corelibs-foundation that raises it, instead of handing it to a thread of its own.
///
/// swift-corelibs-foundation hands every delegate callback and completion handler to the
/// session's delegate queue with `addOperation(_:)`, a thread hand-off each: three or more per
/// request (head, chunks, end). Its own `data(for:)` skips that hand-off for its completion. The
/// transport's callbacks only record what arrived and wake the waiting task, so they run where
/// they are raised, in the order URLSession raises them: measured, a request then costs what a raw
/// `data(for:)` costs (Benchmarks/NOTES.md). A callback that must call back into URLSession in
/// a way that waits on that queue (ending an authentication challenge) hands that call to
/// another queue itself.
///
/// Apple platforms keep URLSession's own serial queue: their URLSession is not built on this one.
final class InlineDelegateQueue: OperationQueue, @unchecked Sendable {
    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        block()
    }
}
#endif

extension URLSessionTask {
    /// Cancels the task from another thread than the caller's.
    ///
    /// An abort comes from a task's cancellation handler, which holds that task's lock while it
    /// runs, or from a delegate callback on URLSession's own queue. In swift-corelibs-foundation
    /// `cancel()` waits for that queue, whose callback in turn may be resuming the same task: each
    /// waits for the other (swift-corelibs-foundation issue 5412; `CancellationStormWireTests`
    /// hung that way). Apple platforms cancel at once.
    func cancelOffTheCaller() {
        #if canImport(FoundationNetworking)
        DispatchQueue.global().async { self.cancel() }
        #else
        cancel()
        #endif
    }
}

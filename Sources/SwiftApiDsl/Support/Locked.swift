import Foundation

/// A value guarded by a lock, for the few places where shared mutable state is the point
/// (the transport's table of running tasks, a task's progress).
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// Takes the lock and lets it go: everything the last holder wrote before letting it go is
    /// now visible to the caller, to the processor and to ThreadSanitizer alike.
    ///
    /// Call it after a continuation returns whose resumer let this lock go before resuming.
    /// When a continuation is resumed before its task reaches the `await` (the resumer won the
    /// race with the closure), the Swift runtime hands the value over without telling
    /// ThreadSanitizer, which then reports a race on whatever came with it
    /// (`ConcurrencyTests.continuationResumedBeforeItsAwaitIsSeenAsOrdered`).
    package func synchronize() {
        lock.lock()
        lock.unlock()
    }
}

import Foundation
#if canImport(Darwin)
import os
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value guarded by a lock, for the few places where shared mutable state is the point
/// (the transport's table of running tasks, a task's progress).
///
/// The lock is the platform's own (`os_unfair_lock`, a `pthread_mutex_t` elsewhere), allocated
/// with the value's box: on Linux an `NSLock` also allocates a mutex and a condition for its
/// timed waits, three more allocations for each of the several boxes every call makes.
package final class Locked<Value>: @unchecked Sendable {
    #if canImport(Darwin)
    private let lock = UnsafeMutablePointer<os_unfair_lock>.allocate(capacity: 1)
    #else
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    #endif
    private var value: Value

    package init(_ value: Value) {
        self.value = value
        #if canImport(Darwin)
        lock.initialize(to: os_unfair_lock())
        #else
        pthread_mutex_init(lock, nil)
        #endif
    }

    deinit {
        #if !canImport(Darwin)
        pthread_mutex_destroy(lock)
        #endif
        lock.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        acquire()
        defer { release() }
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
        acquire()
        release()
    }

    private func acquire() {
        #if canImport(Darwin)
        os_unfair_lock_lock(lock)
        #else
        pthread_mutex_lock(lock)
        #endif
    }

    private func release() {
        #if canImport(Darwin)
        os_unfair_lock_unlock(lock)
        #else
        pthread_mutex_unlock(lock)
        #endif
    }
}

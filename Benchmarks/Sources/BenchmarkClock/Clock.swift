import Foundation

/// Wall and CPU clocks for the benchmarks (every executable of this package).
public enum Clock {
    /// Seconds on the monotonic clock.
    public static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// User plus system CPU seconds this process has used, over all its threads.
    public static func cpu() -> Double {
        var usage = rusage()
        #if os(Linux)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    static func seconds(_ time: timeval) -> Double {
        Double(time.tv_sec) + Double(time.tv_usec) / 1e6
    }
}

/// What one timed run measured.
public struct Sample: Sendable {
    public var operations: Int
    public var wallSeconds: Double
    public var cpuSeconds: Double

    public var operationsPerSecond: Double { Double(operations) / wallSeconds }
    public var wallMicrosecondsPerOperation: Double { wallSeconds * 1e6 / Double(operations) }
    public var cpuMicrosecondsPerOperation: Double { cpuSeconds * 1e6 / Double(operations) }

    /// Runs `operation` from `concurrency` tasks at once, each looping until `duration` seconds
    /// have passed, and counts the operations that completed.
    public static func measure(
        concurrency: Int,
        duration: Double,
        _ operation: @escaping @Sendable () async throws -> Void
    ) async throws -> Sample {
        let start = Clock.now()
        let cpuStart = Clock.cpu()
        let deadline = start + duration
        let operations = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<concurrency {
                group.addTask {
                    var count = 0
                    repeat {
                        try await operation()
                        count += 1
                    } while Clock.now() < deadline
                    return count
                }
            }
            return try await group.reduce(0, +)
        }
        return Sample(operations: operations, wallSeconds: Clock.now() - start, cpuSeconds: Clock.cpu() - cpuStart)
    }

    /// Runs `operation` exactly `count` times, shared between `concurrency` tasks at once: a fixed
    /// amount of work, for an instruction-counting profiler (two counts subtract the start-up).
    public static func run(
        concurrency: Int,
        count: Int,
        _ operation: @escaping @Sendable () async throws -> Void
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<concurrency {
                let share = count / concurrency + (task < count % concurrency ? 1 : 0)
                group.addTask {
                    for _ in 0..<share { try await operation() }
                }
            }
            try await group.waitForAll()
        }
    }
}

extension Array where Element == Double {
    /// The middle value (the mean of the two middle ones for an even count).
    public var median: Double {
        guard !isEmpty else { return .nan }
        let sorted = self.sorted()
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }
}

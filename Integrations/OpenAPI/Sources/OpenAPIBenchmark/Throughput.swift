import Foundation

/// Operations per second, measured on the monotonic clock.
enum Throughput {
    /// Runs `operation` from `concurrency` tasks at once until `duration` seconds have passed and
    /// returns the operations completed per second.
    static func measure(concurrency: Int, duration: Double, _ operation: @escaping @Sendable () async throws -> Void) async throws -> Double {
        let start = ContinuousClock.now
        let deadline = start + .milliseconds(Int(duration * 1000))
        let operations = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<concurrency {
                group.addTask {
                    var count = 0
                    repeat {
                        try await operation()
                        count += 1
                    } while ContinuousClock.now < deadline
                    return count
                }
            }
            return try await group.reduce(0, +)
        }
        let elapsed = ContinuousClock.now - start
        return Double(operations) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// The middle value (the mean of the two middle ones for an even count).
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

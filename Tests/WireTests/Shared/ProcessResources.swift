#if WIRE_SUITES
import Foundation
import Testing

/// The process's open file descriptors and resident memory, from `/proc/self` (Linux).
enum ProcessResources {
    /// Whether this system has `/proc/self`.
    static let areReadable = FileManager.default.fileExists(atPath: "/proc/self/statm")

    /// How many file descriptors the process has open.
    static func openDescriptors() throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
    }

    /// The process's resident set, in bytes (the second field of `/proc/self/statm`, in pages).
    static func residentBytes() throws -> Int {
        let statm = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8)
        let pages = try #require(statm.split(separator: " ").dropFirst().first.flatMap { Int($0) })
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// `measure()` again every 50 ms until `isBack` holds or 10 s passed; its last value. A
    /// session whose tasks are done is invalidated on its own queue a moment after it is
    /// dropped, and nothing tells when that has happened.
    static func settled(_ measure: () throws -> Int, until isBack: (Int) -> Bool) async throws -> Int {
        let deadline = Date().addingTimeInterval(10)
        var value = try measure()
        while !isBack(value), Date() < deadline {
            try await Task.sleep(nanoseconds: 50_000_000)
            value = try measure()
        }
        return value
    }
}
#endif

import Foundation

/// Runs a program as a child process and reports what it printed and its peak memory.
///
/// Peak RSS is a high-water mark for a whole process, so each large transfer runs in a child of
/// its own. The peak is read from the child's `/proc/<pid>/status` (`VmHWM`) while it runs:
/// the `ru_maxrss` that `wait4` reports is no good here, because Linux folds the parent's
/// high-water mark into a child's at `exec`.
enum ChildProcess {
    struct Outcome {
        /// What the child wrote to its standard output.
        var output: String
        /// The child's peak resident set size, in bytes.
        var peakRSS: Int
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `arguments[0]` (looked up in `PATH` when it has no slash) with the rest as its
    /// arguments, and waits for it. A non-zero exit status throws.
    static func run(_ arguments: [String]) throws -> Outcome {
        var pipe: [Int32] = [0, 0]
        guard Glibc.pipe(&pipe) == 0 else { throw Failure(description: "pipe: errno \(errno)") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipe[1], STDOUT_FILENO)
        posix_spawn_file_actions_addclose(&actions, pipe[0])
        posix_spawn_file_actions_addclose(&actions, pipe[1])

        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        argv.append(nil)
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, arguments[0], &actions, nil, argv, environ)
        close(pipe[1])
        defer { close(pipe[0]) }
        guard spawned == 0 else { throw Failure(description: "cannot start \(arguments[0]): errno \(spawned)") }

        _ = fcntl(pipe[0], F_SETFL, O_NONBLOCK)
        var output = Data()
        var status: Int32 = 0
        var peakKiB = 0
        while true {
            drain(pipe[0], into: &output)
            peakKiB = max(peakKiB, highWaterMarkKiB(of: pid))
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid || (reaped < 0 && errno != EINTR) { break }
            usleep(20_000)
        }
        drain(pipe[0], into: &output)
        let text = String(decoding: output, as: UTF8.self)
        // WIFEXITED and WEXITSTATUS, which Swift does not import.
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            throw Failure(description: "\(arguments.joined(separator: " ")) failed (status \(status)): \(text)")
        }
        return Outcome(output: text, peakRSS: peakKiB * 1024)
    }

    /// Appends whatever the pipe holds now.
    private static func drain(_ descriptor: Int32, into output: inout Data) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            output.append(contentsOf: buffer[0..<count])
        }
    }

    /// The `VmHWM` line of `/proc/<pid>/status`, in KiB; 0 once the process has exited.
    private static func highWaterMarkKiB(of pid: pid_t) -> Int {
        statusKiB("VmHWM", of: "\(pid)")
    }

    /// The field `name` of `/proc/<process>/status` (`self` for this one), in KiB; 0 if absent.
    static func statusKiB(_ name: String, of process: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(process)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") })
        else { return 0 }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
    }
}

import Foundation

/// One fuzz target: takes the fuzzer's bytes and stops the process (`fatalError`) when a property
/// it checks does not hold, so that libFuzzer keeps the input as a crash.
typealias Harness = @Sendable (inout FuzzInput) -> Void

/// The harness this process runs, named by `FUZZ_HARNESS` (see `harnesses` in Harnesses.swift).
private let selected: Harness = {
    let name = ProcessInfo.processInfo.environment["FUZZ_HARNESS"] ?? ""
    guard let harness = harnesses[name] else {
        let known = harnesses.keys.sorted().joined(separator: ", ")
        fatalError("FUZZ_HARNESS=\(name.debugDescription) is not one of: \(known)")
    }
    return harness
}()

/// libFuzzer's entry point: called once per input.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    var input = FuzzInput(bytes)
    selected(&input)
    return 0
}

/// Stops the process with `message` when `condition` is false: a property failure.
func require(_ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
    if !condition { fatalError("property failed: \(message())", file: file, line: line) }
}

/// The fuzzer's bytes, read front to back as the values a harness needs. Reading past the end
/// gives zeros and empty strings, so every input means something.
struct FuzzInput {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Whether every byte has been read.
    var isAtEnd: Bool { position >= bytes.count }

    /// The next byte, or 0 at the end.
    mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// A number in `range`, from one byte (two for ranges wider than 256).
    mutating func int(in range: ClosedRange<Int>) -> Int {
        let width = range.upperBound - range.lowerBound + 1
        let raw = width > 256 ? Int(byte()) << 8 | Int(byte()) : Int(byte())
        return range.lowerBound + raw % width
    }

    /// A boolean from one byte.
    mutating func bool() -> Bool { byte() & 1 == 1 }

    /// One of `choices` (which must not be empty).
    mutating func pick<T>(_ choices: [T]) -> T { choices[int(in: 0...choices.count - 1)] }

    /// `items` in an order the input chooses.
    mutating func shuffled<T>(_ items: [T]) -> [T] {
        var rest = items
        var result: [T] = []
        while !rest.isEmpty { result.append(rest.remove(at: int(in: 0...rest.count - 1))) }
        return result
    }

    /// A run of bytes whose length is given by the byte before it.
    mutating func data() -> [UInt8] {
        let length = min(Int(byte()), bytes.count - min(position, bytes.count))
        defer { position += length }
        return Array(bytes[position..<position + length])
    }

    /// A string from ``data()``, invalid UTF-8 becoming U+FFFD.
    mutating func string() -> String { String(decoding: data(), as: UTF8.self) }

    /// Every byte not read yet.
    mutating func rest() -> [UInt8] {
        defer { position = bytes.count }
        return position < bytes.count ? Array(bytes[position...]) : []
    }
}

/// Runs `operation` to its end from the synchronous fuzzer entry point (validators and
/// modifiers are `async`).
func runBlocking<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) -> Result<T, any Error> {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    Task {
        do { box.result = .success(try await operation()) } catch { box.result = .failure(error) }
        done.signal()
    }
    done.wait()
    return box.result!
}

/// Where the task of ``runBlocking(_:)`` leaves its result; the semaphore orders the write
/// before the read.
private final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, any Error>?
}

/// `text` with every `%XX` (two hex digits) turned back into its byte, decoded as UTF-8; `nil`
/// when a `%` is not followed by two hex digits. Written apart from the library's encoder.
func percentDecoded(_ text: String, plusIsSpace: Bool = false) -> String? {
    var bytes: [UInt8] = []
    var iterator = Array(text.utf8).makeIterator()
    while let byte = iterator.next() {
        if byte == UInt8(ascii: "%") {
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        } else if plusIsSpace && byte == UInt8(ascii: "+") {
            bytes.append(UInt8(ascii: " "))
        } else {
            bytes.append(byte)
        }
    }
    return String(validating: bytes, as: UTF8.self)
}

private func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    default: nil
    }
}

/// `text` with ASCII letters lowercased and every other character kept: how HTTP compares
/// names and tokens.
func asciiLowercased<S: StringProtocol>(_ text: S) -> String {
    String(decoding: text.utf8.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
}

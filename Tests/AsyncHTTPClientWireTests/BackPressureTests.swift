#if AsyncHTTPClient
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// What makes this engine the one for large downloads on Linux (Docs/LinuxNotes.md, "A download
/// cannot be slowed"): a body the caller takes as it arrives holds the server back, where
/// URLSession reads it whole into memory.
@Suite struct BackPressureTests {
    /// A stream nobody reads stops the server once a bounded amount is on its way (the transport's
    /// queue, then the sockets' buffers), rather than be read whole into memory; read, every byte
    /// arrives. The server's count is asked on the same client meanwhile. A body asked to end
    /// when its reader falls behind (`endWhenReaderFallsBehind()`) never does on this engine.
    @Test(.timeLimit(.minutes(1)), arguments: [false, true])
    func aStreamNobodyReadsStopsTheServer(askedToEndWhenBehind: Bool) async throws {
        let key = UUID().uuidString
        let size = 128 << 20
        let client = try TestServer.client()
        let stream = try await client.get("flood/\(key)").queryItem(name: "bytes", "\(size)").stream()
        if askedToEndWhenBehind { stream.body.endWhenReaderFallsBehind() }
        func sent() async throws -> Int {
            let answer = try await client.get("flood-sent/\(key)").timeoutInterval(5).perform()
            return Int(String(decoding: answer.body, as: UTF8.self)) ?? -1
        }
        // The server stops once the client takes no more: its count then holds still.
        var last = -1
        var now = try await sent()
        while now != last {
            try await Task.sleep(nanoseconds: 200_000_000)
            (last, now) = (now, try await sent())
        }
        #expect(now < 32 << 20, "the client took \(now) of \(size) bytes without reading any")
        var read = 0
        for try await chunk in stream.body { read += chunk.count }
        #expect(read == size)
    }
}
#endif

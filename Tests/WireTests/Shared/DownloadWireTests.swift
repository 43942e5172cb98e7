#if WIRE_SUITES
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// `download(destination:)` streams to disk and writes the destination only after validation.
@Suite struct DownloadWireTests {
    @Test func downloadWritesTheBody() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("bytes.bin")
        let client = try HttpBin.client().httpStatusCodeRange()
        // /range is deterministic; a seeded /bytes is not while other tests use httpbin's
        // process-wide `random` from other threads.
        let response = try await client.get("range/100000").download(destination: destination)
        let expected: Data = try await client.get("range/100000").perform()
        #expect(response.statusCode == 200)
        #expect(try Data(contentsOf: destination).isSame(as: expected))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["bytes.bin"])
    }

    @Test func downloadReplacesAnExistingFile() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("data.json")
        try Data("old contents that are longer than the new ones".utf8).write(to: destination)
        try await HttpBin.client().get("base64/bmV3").download(destination: destination)
        #expect(try String(contentsOf: destination, encoding: .utf8) == "new")
    }

    @Test func failedValidationLeavesTheDestinationAsItWas() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("keep.txt")
        try Data("precious".utf8).write(to: destination)
        let error = await #expect(throws: RequestError.self) {
            try await HttpBin.client().httpStatusCodeRange().get("status/404").download(destination: destination)
        }
        #expect(error?.stage == "validate")
        #expect(try String(contentsOf: destination, encoding: .utf8) == "precious")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["keep.txt"])
    }

    @Test func validatorsOfADownloadSeeTheErrorBodyButNotASuccessfulOne() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let seen = Trail()
        let client = try HttpBin.client().validator { seen.add("\($0.httpResponse.statusCode):\($0.body.count)") }
        try await client.get("bytes/64").download(destination: folder.appendingPathComponent("ok"))
        try await client.get("deny").download(destination: folder.appendingPathComponent("denied"))
        // /deny answers 200 with a text body; a 418 keeps its 135-byte teapot in memory for validators.
        try await client.get("status/418").download(destination: folder.appendingPathComponent("teapot"))
        #expect(seen.all == ["200:0", "200:0", "418:135"])
    }

    @Test func aDirectoryAtTheDestinationIsNeverReplaced() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("dir")
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: false)
        try Data("inside".utf8).write(to: destination.appendingPathComponent("file"))
        let error = await #expect(throws: RequestError.self) {
            try await HttpBin.client().get("bytes/10").download(destination: destination)
        }
        guard case .fatal(.download(let request, let failedDestination, _)) = error else {
            Issue.record("expected .fatal(.download), got \(String(describing: error))")
            return
        }
        #expect(request.url == (try HttpBin.url("/bytes/10")))
        #expect(failedDestination == destination)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["dir"])
        #expect(try String(contentsOf: destination.appendingPathComponent("file"), encoding: .utf8) == "inside")
    }

    @Test func aMissingFolderFailsAsFatalDownload() async throws {
        let destination = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/file")
        let error = await #expect(throws: RequestError.self) {
            try await HttpBin.client().get("bytes/10").download(destination: destination)
        }
        guard case .fatal(.download(_, let failedDestination, _)) = error else {
            Issue.record("expected .fatal(.download), got \(String(describing: error))")
            return
        }
        #expect(failedDestination == destination)
    }

    @Test func transportFailureLeavesNoFile() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let client = ApiClient(transport: WireTransport.shared, baseUrl: try HttpBin.closedPortURL())
        let error = await #expect(throws: RequestError.self) { try await client.get("x").download(destination: folder.appendingPathComponent("x")) }
        #expect(error?.stage == "transport")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }
}
#endif

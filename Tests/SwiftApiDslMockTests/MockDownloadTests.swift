import Foundation
import SwiftApiDsl
import SwiftApiDslMock
import Testing

/// `download(destination:)` on a mock writes the mocked body, with the core's rules.
@Suite struct MockDownloadTests {
    let folder: URL
    let destination: URL

    init() throws {
        folder = try Fixtures.temporaryFolder()
        destination = folder.appendingPathComponent("bill.pdf")
    }

    /// The names in the folder: the destination only, never a leftover temporary file.
    private var folderContents: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()) ?? []
    }

    @Test func downloadWritesTheMockedBodyToTheDestination() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let mock = ApiClientMock(baseUrl: Fixtures.baseUrl)
        try mock.stub(.get, "bills/:id", body: Data("PDF-8".utf8), headers: ["Content-Type": "application/pdf"])

        let response = try await mock.get("bills/8").download(destination: destination)

        #expect(response.statusCode == 200)
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/pdf")
        #expect(try Data(contentsOf: destination) == Data("PDF-8".utf8))
        #expect(folderContents == ["bill.pdf"])
        #expect(mock.recordedRequests(method: .get, path: "bills/8").count == 1)
    }

    @Test func downloadReplacesAnExistingFile() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("old".utf8).write(to: destination)
        let mock = ApiClientMock(baseUrl: Fixtures.baseUrl)
        mock.resultProvider = { .response($0, body: Data("new".utf8)) }

        try await mock.get("bills/8").download(destination: destination)

        #expect(try Data(contentsOf: destination) == Data("new".utf8))
        #expect(folderContents == ["bill.pdf"])
    }

    @Test func rejectedDownloadLeavesTheDestinationAsItWas() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("old".utf8).write(to: destination)
        let mock = ApiClient(baseUrl: Fixtures.baseUrl).httpStatusCodeRange().mocked()
        mock.appliesValidators = true
        try mock.stub(.get, "bills/:id", body: Data("no such bill".utf8), statusCode: 404)

        let error = await #expect(throws: RequestError.self) { try await mock.get("bills/9").download(destination: destination) }

        guard case .validate(_, let data, let response, _) = error else {
            Issue.record("expected a validate error, got \(String(describing: error))")
            return
        }
        #expect(data == Data("no such bill".utf8))
        #expect(response.statusCode == 404)
        #expect(try Data(contentsOf: destination) == Data("old".utf8))
        #expect(folderContents == ["bill.pdf"])
    }

    @Test func downloadWithoutValidatorsKeepsAnErrorStatusBody() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let mock = ApiClient(baseUrl: Fixtures.baseUrl).httpStatusCodeRange().mocked()
        try mock.stub(.get, "bills/:id", body: Data("no such bill".utf8), statusCode: 404)

        let response = try await mock.get("bills/9").download(destination: destination)

        #expect(response.statusCode == 404)
        #expect(try Data(contentsOf: destination) == Data("no such bill".utf8))
    }

    @Test func mockedFailureLeavesTheDestinationAsItWas() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("old".utf8).write(to: destination)
        let mock = ApiClientMock(baseUrl: Fixtures.baseUrl)
        mock.resultProvider = { .failure(.transport($0, URLError(.networkConnectionLost))) }

        let error = await #expect(throws: RequestError.self) { try await mock.get("bills/9").download(destination: destination) }

        #expect((error?.underlyingError as? URLError)?.code == .networkConnectionLost)
        #expect(try Data(contentsOf: destination) == Data("old".utf8))
        #expect(folderContents == ["bill.pdf"])
    }
}

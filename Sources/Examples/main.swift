// A live walk through SwiftApiDsl's documented usage, against httpbin and the project's test
// server. Run it with `Scripts/demo`, which starts both on loopback and passes their URLs.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// What httpbin echoes back about a request.
struct Echo: Decodable {
    let url: String
    let args: [String: String]
    let headers: [String: String]
    let json: [String: String]?
    let form: [String: String]?
    let files: [String: String]?
}

struct Profile: Codable {
    let firstName: String
    let lastName: String
}

func show(_ title: String, _ value: Any) {
    print("• \(title)\n    \(value)")
}

guard CommandLine.arguments.count > 2, let baseUrl = URL(string: CommandLine.arguments[1]),
      let testServerUrl = URL(string: CommandLine.arguments[2]) else {
    print("usage: Examples <httpbin URL> <test server URL>   (Scripts/demo starts both and passes them)")
    exit(2)
}

/// httpbin's endpoints, declared once.
enum HttpBinApi {
    static func anything(_ path: String) -> Endpoint<Echo> { Endpoint(.get, "anything/\(path)") }
}

let client = ApiClient(baseUrl: baseUrl)
    .userAgent("swiftapidsl-demo/1.0")
    .httpStatusCodeRange()
    .authentication {
        // Fetch or refresh a token here; it may await and throw.
        .bearer("demo-token")
    }

do {
    let echo: Echo = try await client.get("anything/user/profile").queryItem(name: "context", "new-user").perform()
    show("GET with a query item: the server saw", "\(echo.url)  args=\(echo.args)")
    show("…and these headers", "Authorization=\(echo.headers["Authorization"] ?? "-")  User-Agent=\(echo.headers["User-Agent"] ?? "-")")

    let posted: Echo = try await client.post("anything/user/profile", body: Profile(firstName: "Ada", lastName: "Lovelace")).perform()
    show("POST with a JSON body", posted.json ?? [:])

    let unauthenticated: Echo = try await client.get("anything/news", bypassAuth: true).perform()
    show("bypassAuth: Authorization sent", unauthenticated.headers["Authorization"] ?? "none")

    let response: Response<Data> = try await client.get("bytes/16").perform()
    show("Response<Data>", "status \(response.httpResponse.statusCode), \(response.body.count) bytes")

    let form: Echo = try await client.post("post")
        .multipartFormData {
            TextField(name: "type", value: "driver-license")
            DataField(name: "file", filename: "file.pdf", data: Data("%PDF-1.7".utf8), mimeType: "application/pdf")
        }
        .perform()
    show("multipart form: fields / files", "\(form.form ?? [:]) / \(form.files ?? [:])")

    let destination = FileManager.default.temporaryDirectory.appendingPathComponent("swiftapidsl-demo.bin")
    let downloaded = try await client.get("bytes/2048").download(destination: destination)
    let size = try FileManager.default.attributesOfItem(atPath: destination.path)[.size] ?? 0
    show("download(destination:)", "status \(downloaded.statusCode), \(size) bytes at \(destination.path)")
    try? FileManager.default.removeItem(at: destination)

    let redirected: Echo = try await client.get("redirect-to")
        .queryItems(["url": "/anything/books/?ids=1", "status_code": "301"])
        .perform()
    show("relative redirect with a trailing slash", redirected.url)

    do {
        try await client.get("delay/3").timeoutInterval(0.5).perform()
    } catch {
        show("timeoutInterval(0.5) on a 3 s response", error.asRequestError.localizedDescription)
    }

    do {
        try await client.get("status/404").perform()
    } catch {
        let requestError = error.asRequestError
        show("a 404 fails validation", requestError.localizedDescription)
        if let status = requestError.validationError as? ApiClientError, status.code == .unacceptableStatusCode {
            show("validationError", "status \(status.statusCode ?? 0)")
        }
    }

    do {
        let _: Profile = try await client.get("json").perform()
    } catch {
        show("a body that does not decode", error.asRequestError.localizedDescription)
    }

    // The newer ways: endpoints, streamed bodies, retries.
    let endpoint = try await client.perform(HttpBinApi.anything("users/7"))
    show("client.perform(endpoint)", endpoint.url)

    let lines = try await client.get("stream/3").stream()
    var count = 0
    for try await _ in lines.body.lines { count += 1 }
    show("stream() read as lines", "\(count) JSON lines")

    let events = ApiClient(baseUrl: testServerUrl).get("events").serverSentEvents(maxReconnects: 0)
    var received: [String] = []
    for try await case .event(let event) in events { received.append("\(event.type): \(event.data.debugDescription)") }
    show("Server-Sent Events", received.joined(separator: " | "))

    let flaky = try await ApiClient(baseUrl: testServerUrl)
        .retryPolicy(RetryPolicy(initialDelay: 0.1))
        .get("flaky/\(UUID().uuidString)").queryItems(["failures": "2", "status": "503"])
        .perform()
    show("retryPolicy: a route failing twice", "status \(flaky.statusCode) on the third attempt")
} catch {
    print("The demo failed: \(error.asRequestError.localizedDescription)")
    exit(1)
}

// A live walk through SwiftApiDsl's documented usage, against httpbin.
// Run it with `Scripts/demo`, which starts httpbin on loopback and passes its URL.
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

guard CommandLine.arguments.count > 1, let baseUrl = URL(string: CommandLine.arguments[1]) else {
    print("usage: Examples <httpbin URL>   (Scripts/demo starts httpbin and passes it)")
    exit(2)
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
        if let status = requestError.validationError as? UnacceptableStatusCode {
            show("validationError", "status \(status.statusCode)")
        }
    }

    do {
        let _: Profile = try await client.get("json").perform()
    } catch {
        show("a body that does not decode", error.asRequestError.localizedDescription)
    }
} catch {
    print("The demo failed: \(error.asRequestError.localizedDescription)")
    exit(1)
}

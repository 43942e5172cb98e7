#if OpenAPI && AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GeneratedClient
import OpenAPIRuntime
import SwiftApiDsl

/// The Apache Airflow API server that Scripts/lib/airflow.sh starts on loopback: its address, its
/// one user, and plain calls for what the generated client does not cover (tokens come from the
/// auth manager's own sub-application, which the trimmed document leaves out).
enum Airflow {
    struct MissingServer: Error, CustomStringConvertible {
        var description: String {
            "AIRFLOW_URL is not set: start the server with `source Scripts/lib/httpbin.sh; source Scripts/lib/airflow.sh; airflow_start`"
        }
    }

    /// The server's root, e.g. `http://127.0.0.1:8080`; the generated client's paths start with `/api/v2`.
    static func url() throws -> URL {
        guard let value = ProcessInfo.processInfo.environment["AIRFLOW_URL"], let url = URL(string: value) else {
            throw MissingServer()
        }
        return url
    }

    private struct Login: Encodable { let username: String; let password: String }
    private struct Token: Decodable { let access_token: String }

    /// A new access token for the test user (`POST /auth/token`): a JWT the server accepts until it
    /// expires or is revoked.
    static func newToken() async throws -> String {
        let environment = ProcessInfo.processInfo.environment
        let login = Login(username: environment["AIRFLOW_USER"] ?? "wire", password: environment["AIRFLOW_PASSWORD"] ?? "")
        let client = ApiClient(baseUrl: try url())
        return try await client.post("auth/token").jsonBody(login).perform(as: Token.self).access_token
    }

    /// A token that expires one second after it is made (`POST /auth/token/cli`: the server's CLI
    /// tokens are set to last one second, with no leeway): from then on Airflow answers `401`.
    static func expiringToken() async throws -> String {
        let environment = ProcessInfo.processInfo.environment
        let login = Login(username: environment["AIRFLOW_USER"] ?? "wire", password: environment["AIRFLOW_PASSWORD"] ?? "")
        let client = ApiClient(baseUrl: try url())
        return try await client.post("auth/token/cli").jsonBody(login).perform(as: Token.self).access_token
    }

    /// The generated client's settings for Airflow, whose dates carry microseconds, or no
    /// fraction at all when they are whole seconds.
    static let configuration = Configuration(dateTranscoder: Dates())

    /// Reads ISO 8601 dates with or without a fraction of a second; writes them without.
    struct Dates: DateTranscoder {
        struct NotADate: Error, CustomStringConvertible {
            let text: String
            var description: String { "\(text.debugDescription) is not an ISO 8601 date" }
        }

        func encode(_ date: Date) throws -> String { date.formatted(.iso8601) }

        func decode(_ text: String) throws -> Date {
            if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
            if let date = try? Date.ISO8601FormatStyle().parse(text) { return date }
            throw NotADate(text: text)
        }
    }

    /// A name no other test uses, for the pools a test creates.
    static func uniqueName(_ prefix: String) -> String {
        "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())"
    }
}
#endif

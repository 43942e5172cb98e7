#if OpenAPI && AsyncHTTPClient
import Foundation
import OpenAPIRuntime

/// The Label Studio server that Scripts/lib/labelstudio.sh starts on loopback: the second real
/// third-party server, whose import operation takes an upload (multipart/form-data), which
/// Airflow's API has none of. Its one user's API token is sent as `Authorization: Token <token>`.
enum LabelStudio {
    struct MissingServer: Error, CustomStringConvertible {
        var description: String {
            "LABEL_STUDIO_URL is not set: start the server with `source Scripts/lib/httpbin.sh; source Scripts/lib/labelstudio.sh; labelstudio_start; labelstudio_wait`"
        }
    }

    /// The server's root, e.g. `http://127.0.0.1:8080`; the generated client's paths start with `/api`.
    static func url() throws -> URL {
        guard let value = ProcessInfo.processInfo.environment["LABEL_STUDIO_URL"], let url = URL(string: value) else {
            throw MissingServer()
        }
        return url
    }

    /// The API token the script gave the server's user (`label-studio start --user-token`).
    static func token() throws -> String {
        guard let token = ProcessInfo.processInfo.environment["LABEL_STUDIO_TOKEN"], !token.isEmpty else {
            throw MissingServer()
        }
        return token
    }

    /// Label Studio's dates carry microseconds, like Airflow's.
    static let configuration = Configuration(dateTranscoder: Airflow.Dates())
}
#endif

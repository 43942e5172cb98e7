import Foundation
import SwiftApiDsl

/// Where the app keeps its tokens: an actor, read for each request and renewed on a 401.
actor TokenStore {
    private(set) var tokens: TokenPair
    private(set) var refreshCount = 0

    init(_ tokens: TokenPair) { self.tokens = tokens }

    var access: String { tokens.access }

    func store(_ renewed: TokenPair) {
        tokens = renewed
        refreshCount += 1
    }
}

/// The client the app uses: its base URL, a version header, the server's error document, and a
/// bearer token renewed once however many requests a 401 refuses.
nonisolated enum AppApi {
    /// `base` is `ApiClient(baseUrl:)` in the app and `mock.client` in tests.
    static func client(_ base: ApiClient, tokens: TokenStore) -> ApiClient {
        base
            .apiVersion(2)
            .httpStatusCodeRange()
            .decodingErrorBody(ApiProblem.self)
            .authentication(token: { await tokens.access }, refresh: { _ in
                let refresh = await tokens.tokens.refresh
                let renewed: TokenPair = try await base.post("token/refresh", bypassAuth: true, body: ["refresh": refresh])
                    .perform()
                await tokens.store(renewed)
                return renewed.access
            })
    }
}

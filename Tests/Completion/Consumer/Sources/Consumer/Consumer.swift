import Foundation
import SwiftApiDsl
import SwiftApiDslCache
import SwiftApiDslMock

// Scripts/completion_test.py completes at each `/*complete:NAME*/` marker: it replaces the
// marker's line by the text a user has typed so far and asks sourcekit-lsp what comes next.
// The file compiles as it is, so the package can be built and indexed beforehand.

struct Profile: Decodable, Sendable {
    var name: String
}

func completionSites(client: ApiClient, mock: ApiClientMock, error: any Error) async throws {
    _ = client /*complete:client*/
    _ = mock /*complete:mock*/
    _ = client /*complete:header*/
    _ = client.get("user/profile") /*complete:perform*/
    _ = error /*complete:requestError*/
}

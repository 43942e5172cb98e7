// Shared by SwiftApiDslTests and SwiftApiDslMockTests (a link in SwiftApiDslTests/Support).
import SwiftApiDsl
import SwiftApiDslCache

extension Resource.State where Value == [String] {
    /// The state in a few characters, for exact comparisons: `loaded(v1)`, `failed(500)`.
    var name: String {
        switch self {
        case .idle: "idle"
        case .loading: "loading"
        case .loaded(let value): "loaded(\(value.joined()))"
        case .failed(let error): "failed(\(error.statusCode ?? 0))"
        }
    }
}

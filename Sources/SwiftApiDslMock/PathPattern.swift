/// A path pattern, matched segment by segment against a request's path relative to the base URL.
///
/// - a literal segment matches itself (percent-encoded or not: `a%20b` and `a b` are the same);
/// - `:name` matches any non-empty segment and captures it as the path parameter `name`;
/// - `*` matches any non-empty segment;
/// - `**` as the last segment matches whatever follows, nothing included.
///
/// A leading slash is ignored (`/todos` is `todos`); a trailing slash counts (`books/` does not
/// match `books`). The empty pattern matches the base URL itself.
struct PathPattern: Sendable, CustomStringConvertible {
    private enum Segment: Sendable {
        case literal(String)
        case parameter(String)
        case wildcard
        case rest
    }

    /// The pattern as written.
    let description: String
    private let segments: [Segment]

    init(_ pattern: String) {
        description = pattern
        let trimmed = pattern.hasPrefix("/") ? pattern.dropFirst() : Substring(pattern)
        let parts = trimmed.isEmpty ? [] : trimmed.split(separator: "/", omittingEmptySubsequences: false)
        segments = parts.enumerated().map { index, part in
            switch part {
            case "**" where index == parts.count - 1: .rest
            case "*", "**": .wildcard
            case _ where part.count > 1 && part.hasPrefix(":"): .parameter(String(part.dropFirst()))
            default: .literal(part.removingPercentEncoding ?? String(part))
            }
        }
    }

    /// The path parameters if `path` (percent-decoded segments) matches, else `nil`.
    func match(_ path: [String]) -> [String: String]? {
        var parameters: [String: String] = [:]
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .rest:
                return parameters
            case .literal(let literal):
                guard index < path.count, literal == path[index] else { return nil }
            case .parameter(let name):
                guard index < path.count, !path[index].isEmpty else { return nil }
                parameters[name] = path[index]
            case .wildcard:
                guard index < path.count, !path[index].isEmpty else { return nil }
            }
        }
        return segments.count == path.count ? parameters : nil
    }
}

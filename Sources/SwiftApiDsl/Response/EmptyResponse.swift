/// The body of a response that carries none, or whose content you ignore.
///
/// ```swift
/// let _: EmptyResponse = try await client.delete("todos/7").perform()
/// ```
/// It decodes from an empty body and from any JSON at all. For a body that may be empty or hold
/// a value, decode an optional: `perform(as: Page?.self)` gives `nil` for an empty body.
public struct EmptyResponse: Decodable, Sendable, Equatable {
    /// An empty answer, as a mock or a test builds one.
    public init() {}
    /// Decodes any body, or none, without reading it.
    public init(from decoder: Decoder) throws {}
}

/// A body type the library makes from an empty body without decoding (a `204`, an empty `200`):
/// ``EmptyResponse``, and any `Optional`, as `nil`. Only the library's own types conform, so no
/// conformance is isolated to an actor and the check finds it on any thread.
protocol EmptyDecodable {
    /// The value an empty body stands for.
    static var emptyValue: Self { get }
}

extension EmptyResponse: EmptyDecodable {
    static var emptyValue: EmptyResponse { EmptyResponse() }
}

extension Optional: EmptyDecodable {
    static var emptyValue: Optional { nil }
}
